import EndpointOpenAPI
import Testing

/// `oneOf` and `anyOf` as Swift enums.
@Suite struct ChoiceGenerationTests {
  @Test func oneOfIsAnEnumThatDecodesExactlyOneVariantAndAnyOfTheFirst() throws {
    let output = try generate(
      document(
        schemas: """
          {"Circle": {"type": "object", "required": ["radius"], "properties": {
             "radius": {"type": "number"}}},
           "Square": {"type": "object", "required": ["side"], "properties": {
             "side": {"type": "number"}}},
           "Shape": {"description": "A shape.", "oneOf": [
             {"$ref": "#/components/schemas/Circle"}, {"$ref": "#/components/schemas/Square"},
             {"title": "named", "type": "string"}, {"type": "null"}]},
           "Drawing": {"type": "object", "required": ["shape"], "properties": {
             "shape": {"$ref": "#/components/schemas/Shape"},
             "layers": {"type": "array", "items": {"anyOf": [
               {"$ref": "#/components/schemas/Circle"},
               {"type": "object", "properties": {"name": {"type": "string"}}}]}}}}}
          """))
    #expect(
      source(output, "Models/Shape.swift") == """
        /// A shape.
        indirect enum Shape: Codable, Sendable, Hashable {
          case circle(Circle)
          case square(Square)
          case named(String)

          init(from decoder: any Decoder) throws {
            var matches: [Self] = []
            if let value = try? Circle(from: decoder) {
              matches.append(.circle(value))
            }
            if let value = try? Square(from: decoder) {
              matches.append(.square(value))
            }
            if let value = try? String(from: decoder) {
              matches.append(.named(value))
            }
            guard matches.count == 1, let match = matches.first else {
              throw DecodingError.dataCorrupted(
                DecodingError.Context(
                  codingPath: decoder.codingPath,
                  debugDescription: "\\(matches.count) oneOf variants of Shape match; one must."))
            }
            self = match
          }

          func encode(to encoder: any Encoder) throws {
            switch self {
            case .circle(let value):
              try value.encode(to: encoder)
            case .square(let value):
              try value.encode(to: encoder)
            case .named(let value):
              try value.encode(to: encoder)
            }
          }
        }

        """)
    // A `null` variant makes the enum optional where it is used; the property is required,
    // so it must be present, even if null.
    #expect(
      source(output, "Models/Drawing.swift") == """
        struct Drawing: Codable, Sendable, Hashable {
          var layers: [LayersItem]?
          var shape: Shape?

          /// Creates a value from its properties.
          init(layers: [LayersItem]? = nil, shape: Shape?) {
            self.layers = layers
            self.shape = shape
          }

          enum CodingKeys: String, CodingKey {
            case layers
            case shape
          }

          init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.layers = try container.decodeIfPresent([LayersItem].self, forKey: .layers)
            self.shape = try container.decode(Shape?.self, forKey: .shape)
          }

          func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(self.layers, forKey: .layers)
            try container.encode(self.shape, forKey: .shape)
          }

          indirect enum LayersItem: Codable, Sendable, Hashable {
            case circle(Circle)
            case option2(Option2)

            init(from decoder: any Decoder) throws {
              var matches: [Self] = []
              if let value = try? Circle(from: decoder) {
                matches.append(.circle(value))
              }
              if let value = try? Option2(from: decoder) {
                matches.append(.option2(value))
              }
              guard let match = matches.first else {
                throw DecodingError.dataCorrupted(
                  DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "No anyOf variant of LayersItem matches."))
              }
              self = match
            }

            func encode(to encoder: any Encoder) throws {
              switch self {
              case .circle(let value):
                try value.encode(to: encoder)
              case .option2(let value):
                try value.encode(to: encoder)
              }
            }

            struct Option2: Codable, Sendable, Hashable {
              var name: String?
            }
          }
        }

        """)
    #expect(output.warnings.isEmpty)
  }

  @Test func aDiscriminatorDecodesByTheMappingOrTheSchemaNameAndKeepsOtherValues() throws {
    let output = try generate(
      document(
        schemas: """
          {"Circle": {"type": "object", "required": ["kind"], "properties": {
             "kind": {"type": "string"}}},
           "Square": {"type": "object", "required": ["kind"], "properties": {
             "kind": {"type": "string"}}},
           "Event": {"oneOf": [
             {"$ref": "#/components/schemas/Circle"}, {"$ref": "#/components/schemas/Square"}],
             "discriminator": {"propertyName": "kind", "mapping": {
               "round": "Circle", "tri": "#/components/schemas/Triangle"}}},
           "Triangle": {"type": "object"}}
          """), options: .init(accessLevel: .public))
    #expect(
      source(output, "Models/Event.swift") == """
        import EndpointJSON

        /// The Event schema.
        public indirect enum Event: Codable, Sendable, Hashable {
          /// `kind` is `round` or `Circle`.
          case circle(Circle)
          /// `kind` is `Square`.
          case square(Square)
          /// Another `kind` value, one added later, kept as it is.
          case unknown(JSONValue)

          /// Decodes the variant.
          public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: DiscriminatorKey.self)
            switch try container.decode(String.self, forKey: .value) {
            case "round", "Circle":
              self = try .circle(Circle(from: decoder))
            case "Square":
              self = try .square(Square(from: decoder))
            default:
              self = try .unknown(JSONValue(from: decoder))
            }
          }

          /// Encodes the variant's value.
          public func encode(to encoder: any Encoder) throws {
            switch self {
            case .circle(let value):
              try value.encode(to: encoder)
            case .square(let value):
              try value.encode(to: encoder)
            case .unknown(let value):
              try value.encode(to: encoder)
            }
          }

          private enum DiscriminatorKey: String, CodingKey {
            case value = "kind"
          }
        }

        """)
    #expect(
      output.warnings.map(\.description) == [
        "#/components/schemas/Event/discriminator/mapping/tri: #/components/schemas/Triangle "
          + "is not a variant of the oneOf; the value decodes as unknown"
      ])
  }

  @Test func whatAnEnumCannotExpressIsReportedWithItsPointerAndSkipped() throws {
    let output = try generate(
      document(
        schemas: """
          {"Circle": {"type": "object", "properties": {"r": {"type": "number"}}},
           "Inline": {"oneOf": [{"$ref": "#/components/schemas/Circle"}, {"type": "object"}],
             "discriminator": {"propertyName": "kind"}},
           "Mixed": {"type": "object", "properties": {"a": {"type": "string"}},
             "oneOf": [{"$ref": "#/components/schemas/Circle"}, {"type": "string"}]},
           "List": {"type": "array", "items": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
           "Same": {"anyOf": [{"type": "string", "format": "email"}, {"type": "string"}]},
           "Known": {"type": "string", "enum": ["a", "b"]},
           "Open": {"oneOf": [{"$ref": "#/components/schemas/Known"}, {"type": "string"}]}}
          """))
    #expect(output.files.map(\.path) == ["Models/Circle.swift", "Models/Known.swift"])
    #expect(
      output.warnings.map(\.description) == [
        "#/components/schemas/Inline/oneOf/1: a discriminator's variants must each be a "
          + "$ref to components/schemas; the schema is skipped",
        "#/components/schemas/List/items: a oneOf or anyOf declared in place here is not "
          + "supported yet; declare it in components/schemas; the schema is skipped",
        "#/components/schemas/Mixed/oneOf: oneOf beside properties is not supported yet; "
          + "the schema is skipped",
        "#/components/schemas/Open/oneOf/1: this variant and Known both read any string, so "
          + "no string matches exactly one; the schema is skipped",
        "#/components/schemas/Same/anyOf/1: two variants of the anyOf are both String, "
          + "which cannot be told apart; the schema is skipped",
      ])
  }

  /// Kubernetes writes a value that is an integer or a string (a port's number or name) as
  /// `format: int-or-string`, or `x-kubernetes-int-or-string`: not a `String`, which would fail
  /// to decode `8080`, but the anyOf of the two.
  @Test func intOrStringIsAnAnyOfAnIntegerThenAString() throws {
    let output = try generate(
      document(
        schemas: """
          {"IntOrString": {"type": "string", "format": "int-or-string"},
           "ServicePort": {"type": "object", "required": ["port"], "properties": {
             "port": {"type": "integer"},
             "targetPort": {"$ref": "#/components/schemas/IntOrString"},
             "maxSurge": {"x-kubernetes-int-or-string": true, "nullable": true}}}}
          """))
    #expect(output.warnings.isEmpty)
    let choice = """
      enum IntOrString: Codable, Sendable, Hashable {
        case integer(Int)
        case string(String)

        init(from decoder: any Decoder) throws {
          var matches: [Self] = []
          if let value = try? Int(from: decoder) {
            matches.append(.integer(value))
          }
          if let value = try? String(from: decoder) {
            matches.append(.string(value))
          }
          guard let match = matches.first else {
            throw DecodingError.dataCorrupted(
              DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "No anyOf variant of IntOrString matches."))
          }
          self = match
        }
      """
    #expect(source(output, "Models/IntOrString.swift")?.hasPrefix(choice) == true)
    let port = try #require(source(output, "Models/ServicePort.swift"))
    #expect(
      port.hasPrefix(
        """
        struct ServicePort: Codable, Sendable, Hashable {
          var maxSurge: MaxSurge?
          var port: Int
          var targetPort: IntOrString?

          enum MaxSurge: Codable, Sendable, Hashable {
            case integer(Int)
            case string(String)

        """))
  }
}
