/// A step of the tour got an answer other than the one the API promises.
struct ExampleFailure: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}

/// Throws ``ExampleFailure`` with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(ExampleFailure) {
  if !condition { throw ExampleFailure(message()) }
}
