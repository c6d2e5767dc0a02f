import EndpointOpenAPI
import Testing

@Suite struct ModelGenerationTests {
  @Test func objectPropertiesAreOptionalUnlessRequiredAndNotNullable() throws {
    let output = try generate(
      document(
        schemas: """
          {"User": {"type": "object", "required": ["login", "bio"], "properties": {
            "login": {"type": "string", "description": "The handle."},
            "bio": {"type": ["string", "null"]},
            "site_admin": {"type": "boolean"},
            "followers": {"type": "integer"},
            "score": {"type": "number"},
            "labels": {"type": "array", "items": {"type": "string"}},
            "extra": {"type": "object", "additionalProperties": {"type": "integer"}}
          }}}
          """))
    #expect(
      source(output, "Models/User.swift") == """
        struct User: Codable, Sendable, Hashable {
          var bio: String?
          var extra: [String: Int]?
          var followers: Int?
          var labels: [String]?
          /// The handle.
          var login: String
          var score: Double?
          var siteAdmin: Bool?

          /// Creates a value from its properties.
          init(
            bio: String?,
            extra: [String: Int]? = nil,
            followers: Int? = nil,
            labels: [String]? = nil,
            login: String,
            score: Double? = nil,
            siteAdmin: Bool? = nil
          ) {
            self.bio = bio
            self.extra = extra
            self.followers = followers
            self.labels = labels
            self.login = login
            self.score = score
            self.siteAdmin = siteAdmin
          }

          enum CodingKeys: String, CodingKey {
            case bio
            case extra
            case followers
            case labels
            case login
            case score
            case siteAdmin = "site_admin"
          }

          init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.bio = try container.decode(String?.self, forKey: .bio)
            self.extra = try container.decodeIfPresent([String: Int].self, forKey: .extra)
            self.followers = try container.decodeIfPresent(Int.self, forKey: .followers)
            self.labels = try container.decodeIfPresent([String].self, forKey: .labels)
            self.login = try container.decode(String.self, forKey: .login)
            self.score = try container.decodeIfPresent(Double.self, forKey: .score)
            self.siteAdmin = try container.decodeIfPresent(Bool.self, forKey: .siteAdmin)
          }

          func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.bio, forKey: .bio)
            try container.encodeIfPresent(self.extra, forKey: .extra)
            try container.encodeIfPresent(self.followers, forKey: .followers)
            try container.encodeIfPresent(self.labels, forKey: .labels)
            try container.encode(self.login, forKey: .login)
            try container.encodeIfPresent(self.score, forKey: .score)
            try container.encodeIfPresent(self.siteAdmin, forKey: .siteAdmin)
          }
        }

        """)
    #expect(output.warnings.isEmpty)
  }

  @Test func allOfPartsMergeIntoOneStruct() throws {
    let output = try generate(
      document(
        schemas: """
          {"Base": {"type": "object", "required": ["id"], "properties": {
             "id": {"type": "integer"}}},
           "Named": {"allOf": [{"$ref": "#/components/schemas/Base"},
             {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}]}}
          """))
    #expect(
      source(output, "Models/Named.swift") == """
        struct Named: Codable, Sendable, Hashable {
          var id: Int
          var name: String
        }

        """)
  }

  @Test func stringEnumsKeepUnknownValues() throws {
    let output = try generate(
      document(schemas: #"{"State": {"type": "string", "enum": ["open", "in-review", "1"]}}"#))
    #expect(
      source(output, "Models/State.swift") == """
        struct State: RawRepresentable, Codable, Sendable, Hashable {
          static let open = Self(rawValue: "open")
          static let inReview = Self(rawValue: "in-review")
          static let _1 = Self(rawValue: "1")

          var rawValue: String

          init(rawValue: String) {
            self.rawValue = rawValue
          }

          init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
          }

          func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
          }
        }

        """)
  }

  @Test func namesAreEscapedAndNeverTheSDKs() throws {
    let output = try generate(
      document(
        schemas: """
          {"HTTPRequest": {"type": "object", "properties": {
             "default": {"type": "string"}, "self": {"type": "string"},
             "URL": {"type": "string"}, "html_url": {"type": "string"}}},
           "Endpoint": {"type": "array", "items": {"$ref": "#/components/schemas/HTTPRequest"}},
           "user": {"type": "string"}, "User": {"type": "integer"}}
          """))
    #expect(
      output.files.map(\.path) == [
        "Models/EndpointSchema.swift", "Models/HTTPRequestSchema.swift", "Models/User.swift",
        "Models/User2.swift",
      ])
    #expect(
      source(output, "Models/HTTPRequestSchema.swift") == """
        struct HTTPRequestSchema: Codable, Sendable, Hashable {
          var url: String?
          var `default`: String?
          var htmlUrl: String?
          var self_: String?

          enum CodingKeys: String, CodingKey {
            case url = "URL"
            case `default`
            case htmlUrl = "html_url"
            case self_ = "self"
          }
        }

        """)
    #expect(
      source(output, "Models/EndpointSchema.swift") == """
        typealias EndpointSchema = [HTTPRequestSchema]

        """)
  }

  @Test func unsupportedConstructsAreReportedWithTheirPointerAndLeftOut() throws {
    let output = try generate(
      document(
        schemas: """
          {"Shape": {"oneOf": [{"type": "string", "format": "email"}, {"type": "string"}]},
           "Box": {"type": "object", "properties": {
             "shape": {"$ref": "#/components/schemas/Shape"},
             "width": {"type": "integer"}}}}
          """))
    #expect(output.files.map(\.path) == ["Models/Box.swift"])
    #expect(
      output.warnings.map(\.description) == [
        "#/components/schemas/Box/properties/shape/$ref: #/components/schemas/Shape is a "
          + "schema that is skipped; the property is left out",
        "#/components/schemas/Shape/oneOf/1: two variants of the oneOf are both String, "
          + "which cannot be told apart; the schema is skipped",
      ])
  }

  @Test func additionalPropertiesBesidePropertiesAreKeptInADictionary() throws {
    let output = try generate(
      document(
        schemas: """
          {"Tags": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}},
             "additionalProperties": {"type": "object", "properties": {"n": {"type": "integer"}}}},
           "Seen": {"type": "object", "properties": {"id": {"type": "integer"}},
             "additionalProperties": {"type": "string", "format": "date-time"}},
           "Named": {"type": "object",
             "properties": {"additionalProperties": {"type": "integer"}},
             "additionalProperties": {"type": "string"}}}
          """))
    let tags = try #require(source(output, "Models/Tags.swift"))
    #expect(tags.contains("  var additionalProperties: [String: AdditionalValue] = [:]\n"))
    #expect(
      tags.contains(
        "  init(id: Int, additionalProperties: [String: AdditionalValue] = [:]) {\n"))
    #expect(
      tags.contains(
        "    for key in others.allKeys where CodingKeys(stringValue: key.stringValue) == nil {\n"
          + "      additionalProperties[key.stringValue] = "
          + "try others.decode(AdditionalValue.self, forKey: key)\n"))
    #expect(
      tags.contains(
        "    for (key, value) in additionalProperties where CodingKeys(stringValue: key) == nil {\n"
          + "      try others.encode(value, forKey: AdditionalKey(stringValue: key))\n"))
    #expect(tags.contains("  struct AdditionalValue: Codable, Sendable, Hashable {\n"))
    // Date-times, and a property of that name, are reported and the extra keys ignored.
    for name in ["Seen", "Named"] {
      #expect(source(output, "Models/\(name).swift")?.contains("AdditionalKey") == false)
    }
    #expect(
      output.warnings.map(\.description) == [
        "#/components/schemas/Named/additionalProperties: additionalProperties beside a "
          + "property named additionalProperties is not kept; extra properties are ignored "
          + "when decoding",
        "#/components/schemas/Seen/additionalProperties: additionalProperties of date-times "
          + "beside properties is not kept yet; extra properties are ignored when decoding",
      ])
  }

  @Test func aFormBodyThatKeepsAdditionalPropertiesIsReportedNotSentWithoutThem() throws {
    let paths = """
      {"/login": {"post": {"operationId": "logIn", "requestBody": {"content": {
         "application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/Loose"}}}},
       "responses": {"204": {"description": "OK"}}}}}
      """
    let schemas = """
      {"Loose": {"type": "object", "properties": {"id": {"type": "integer"}},
         "additionalProperties": {"type": "string"}}}
      """
    let output = try generate(document(schemas: schemas, paths: paths))
    #expect(source(output, "API.swift") == nil)
    #expect(
      output.warnings.map(\.description) == [
        "#/paths/~1login/post/requestBody/content/application~1x-www-form-urlencoded/schema: "
          + "a form body with additionalProperties beside properties is not supported yet; "
          + "the operation is skipped"
      ])
  }

  @Test func aStructNeverContainsItselfExceptThroughAnArray() throws {
    let output = try generate(
      document(
        schemas: """
          {"Node": {"type": "object", "properties": {
             "parent": {"$ref": "#/components/schemas/Node"},
             "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}}
          """))
    #expect(
      source(output, "Models/Node.swift") == """
        struct Node: Codable, Sendable, Hashable {
          var children: [Node]?
        }

        """)
    #expect(
      output.warnings.map(\.pointer) == ["#/components/schemas/Node/properties/parent"])
  }

  @Test func nullableOneOfIsAnOptional() throws {
    let output = try generate(
      document(
        schemas: """
          {"Team": {"type": "object", "required": ["lead"], "properties": {
             "lead": {"oneOf": [{"type": "string"}, {"type": "null"}]}}}}
          """))
    #expect(
      source(output, "Models/Team.swift") == """
        struct Team: Codable, Sendable, Hashable {
          var lead: String?

          /// Creates a value from its properties.
          init(lead: String?) {
            self.lead = lead
          }

          enum CodingKeys: String, CodingKey {
            case lead
          }

          init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.lead = try container.decode(String?.self, forKey: .lead)
          }

          func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.lead, forKey: .lead)
          }
        }

        """)
  }

  @Test func aRequiredNullablePropertyMustBePresentAndIsEncodedAsNull() throws {
    // OpenAPI 3.0 writes `nullable: true`; an optional nullable property stays `T?` as before.
    let output = try generate(
      """
      {"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {},
       "components": {"schemas": {"Profile": {"type": "object", "required": ["bio"],
         "properties": {"bio": {"type": "string", "nullable": true},
           "site": {"type": "string", "nullable": true}}}}}}
      """)
    #expect(
      source(output, "Models/Profile.swift") == """
        struct Profile: Codable, Sendable, Hashable {
          var bio: String?
          var site: String?

          /// Creates a value from its properties.
          init(bio: String?, site: String? = nil) {
            self.bio = bio
            self.site = site
          }

          enum CodingKeys: String, CodingKey {
            case bio
            case site
          }

          init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.bio = try container.decode(String?.self, forKey: .bio)
            self.site = try container.decodeIfPresent(String.self, forKey: .site)
          }

          func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self.bio, forKey: .bio)
            try container.encodeIfPresent(self.site, forKey: .site)
          }
        }

        """)
  }

  @Test func aDateTimePropertyIsADateCodedByTheSharedWrapper() throws {
    // A `date` is a `CalendarDay`, which codes itself: a calendar day is not an instant. Only
    // the required nullable property makes the coding hand-written; the wrapper codes the
    // date-times.
    let output = try generate(
      document(
        schemas: """
          {"Event": {"type": "object", "required": ["created", "deleted"], "properties": {
             "created": {"type": "string", "format": "date-time"},
             "deleted": {"type": ["string", "null"], "format": "date-time"},
             "updated": {"type": "string", "format": "date-time"},
             "day": {"type": "string", "format": "date"}}}}
          """))
    #expect(
      output.files.map(\.path) == [
        "Models/Event.swift", "Support/RFC3339.swift", "Support/CalendarDay.swift",
      ])
    #expect(
      source(output, "Models/Event.swift") == """
        #if canImport(FoundationEssentials)
          import FoundationEssentials
        #else
          import Foundation
        #endif

        struct Event: Codable, Sendable, Hashable {
          @RFC3339 var created: Date
          var day: CalendarDay?
          @RFC3339 var deleted: Date? = nil
          @RFC3339 var updated: Date? = nil

          /// Creates a value from its properties.
          init(created: Date, day: CalendarDay? = nil, deleted: Date?, updated: Date? = nil) {
            self.created = created
            self.day = day
            self.deleted = deleted
            self.updated = updated
          }

          enum CodingKeys: String, CodingKey {
            case created
            case day
            case deleted
            case updated
          }

          init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self._created = try container.decode(RFC3339<Date>.self, forKey: .created)
            self.day = try container.decodeIfPresent(CalendarDay.self, forKey: .day)
            self.deleted = try container.decode(RFC3339<Date>?.self, forKey: .deleted)?.wrappedValue
            self._updated = try container.decode(RFC3339<Date?>.self, forKey: .updated)
          }

          func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self._created, forKey: .created)
            try container.encodeIfPresent(self.day, forKey: .day)
            try container.encode(self.deleted.map(RFC3339.init(wrappedValue:)), forKey: .deleted)
            try container.encode(self._updated, forKey: .updated)
          }
        }

        """)
  }

  /// A date-time schema of `components/schemas` is a `Date` typealias, with Foundation
  /// imported for it; a property naming it, directly, through `allOf` or as array items, is a
  /// `Date` coded by the wrapper.
  @Test func aDateTimeSchemaIsADateAliasAndWhatNamesItADateToo() throws {
    let output = try generate(
      document(
        schemas: """
          {"Timestamp": {"type": "string", "format": "date-time"},
           "Log": {"type": "object", "required": ["at"], "properties": {
             "at": {"$ref": "#/components/schemas/Timestamp"},
             "since": {"description": "The first.", "allOf": [
               {"$ref": "#/components/schemas/Timestamp"}]},
             "history": {"type": "array", "items": {"$ref": "#/components/schemas/Timestamp"}},
             "note": {"type": "string"}}}}
          """))
    #expect(output.warnings.isEmpty)
    #expect(
      source(output, "Models/Timestamp.swift") == """
        #if canImport(FoundationEssentials)
          import FoundationEssentials
        #else
          import Foundation
        #endif

        typealias Timestamp = Date

        """)
    let log = try #require(source(output, "Models/Log.swift"))
    #expect(
      log.contains(
        """
        struct Log: Codable, Sendable, Hashable {
          @RFC3339 var at: Date
          @RFC3339 var history: [Date]? = nil
          var note: String?
          /// The first.
          @RFC3339 var since: Date? = nil
        }
        """))
  }

  @Test func aDateTimeInABodyDeclaredInPlaceBringsTheWrapperToo() throws {
    let paths = """
      {"/events": {"post": {"operationId": "record",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
          "type": "object", "properties": {"at": {"type": "string", "format": "date-time"}}}}}},
        "responses": {"204": {"description": "Recorded."}}}}}
      """
    let output = try generate(document(paths: paths))
    #expect(output.files.map(\.path) == ["API.swift", "Support/RFC3339.swift"])
    #expect(source(output, "API.swift")?.contains("    @RFC3339 var at: Date? = nil\n") == true)
  }
}
