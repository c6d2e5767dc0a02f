/// A ``TokenProvider`` made of two closures.
struct ClosureTokenProvider: TokenProvider {
  let current: @Sendable () async throws -> String
  let refresh: @Sendable (String) async throws -> String

  func token() async throws -> String {
    try await current()
  }

  func refreshToken(rejected: String) async throws -> String {
    try await refresh(rejected)
  }
}
