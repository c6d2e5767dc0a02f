/// The JSON body the todo API sends with a 404 or a 401.
struct APIErrorBody: Codable, Sendable {
  var message: String
}

/// The JSON body the todo API sends with a 422: what was wrong with each field.
struct ValidationProblem: Codable, Sendable {
  struct FieldError: Codable, Sendable {
    var field: String
    var message: String
  }

  var message: String
  var errors: [FieldError]
}
