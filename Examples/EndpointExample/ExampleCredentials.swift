/// The demo API key that the fake backend and `Examples/todo_server.py` both accept.
///
/// A real program reads its key from the environment or a keychain, never from source.
enum ExampleCredentials {
  static let apiKey = "demo-key-0000"
}
