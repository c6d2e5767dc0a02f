import EndpointPrimitives
import Synchronization

/// Hands out tokens and runs at most one refresh at a time for an ``AuthorizationMiddleware``.
///
/// Requests rejected while a refresh runs wait for it; requests rejected with a token that an
/// earlier refresh already replaced use the replacement without refreshing again.
final class TokenStore: Sendable {
  /// How many replaced tokens are remembered; a request still holding an older one refreshes.
  private static let rememberedTokens = 8

  private struct State {
    var refresh: Task<String, any Error>?
    /// Tokens that were rejected and replaced, oldest first.
    var replaced: [String] = []
    /// The token the last successful refresh returned.
    var latest: String?
  }

  /// A refresh failed; carries the provider's error to every waiting request.
  struct RefreshError: Error {
    let underlying: any Error
  }

  private enum Replacement {
    case ready(String)
    case pending(Task<String, any Error>)
  }

  private let provider: any TokenProvider
  private let state = Mutex(State())

  init(provider: any TokenProvider) {
    self.provider = provider
  }

  /// The provider's type, for a mirror that must not show the tokens the provider holds.
  var providerType: String { String(describing: type(of: provider)) }

  /// The token for a new request: the one being refreshed if a refresh runs, else the provider's.
  ///
  /// - Throws: the provider's error, or ``RefreshError`` if the refresh it waited for failed.
  func token() async throws -> String {
    if let refresh = state.withVisibleLock({ $0.refresh }) {
      return try await refresh.value
    }
    let token = try await provider.token()
    // A provider that keeps returning a token already replaced would only earn another 401.
    return state.withVisibleLock { state in
      state.replaced.contains(token) ? state.latest ?? token : token
    }
  }

  /// A token to retry with after the server rejected `rejected`.
  ///
  /// - Throws: ``RefreshError`` around the error of ``TokenProvider/refreshToken(rejected:)``.
  func replacement(for rejected: String) async throws -> String {
    let replacement = state.withVisibleLock { state -> Replacement in
      if let refresh = state.refresh { return .pending(refresh) }
      if let latest = state.latest, latest != rejected, state.replaced.contains(rejected) {
        return .ready(latest)
      }
      let refresh = Task { [provider] in
        do {
          let token = try await provider.refreshToken(rejected: rejected)
          self.finish(replacing: rejected, with: token)
          return token
        } catch {
          self.finish(replacing: rejected, with: nil)
          throw RefreshError(underlying: error)
        }
      }
      state.refresh = refresh
      return .pending(refresh)
    }
    switch replacement {
    case .ready(let token): return token
    case .pending(let refresh): return try await refresh.value
    }
  }

  private func finish(replacing rejected: String, with token: String?) {
    state.withVisibleLock { state in
      state.refresh = nil
      guard let token else { return }
      state.latest = token
      state.replaced.removeAll { $0 == rejected || $0 == token }
      state.replaced.append(rejected)
      if state.replaced.count > Self.rememberedTokens { state.replaced.removeFirst() }
    }
  }
}
