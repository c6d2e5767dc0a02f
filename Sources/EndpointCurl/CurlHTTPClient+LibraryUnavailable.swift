extension CurlHTTPClient {
  /// libcurl could not be used: the shared library is missing or too old, or the platform is
  /// not supported.
  ///
  /// EndpointCurl opens `libcurl.so.4` when the first client is made. On Debian and Ubuntu it
  /// comes with the `libcurl4` package (Foundation's networking on Linux needs it too).
  ///
  /// ```swift
  /// do {
  ///   let client = try CurlHTTPClient()
  ///   _ = client
  /// } catch let error as CurlHTTPClient.LibraryUnavailable {
  ///   print(error)
  ///   // libcurl is unavailable: cannot load libcurl.so.4 (…); install …
  /// }
  /// ```
  public struct LibraryUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// The library that was looked for, such as `libcurl.so.4`.
    public let libraryName: String
    /// What went wrong: not found, a function missing, a version too old, or the platform.
    public let reason: String

    /// Creates the error.
    public init(libraryName: String, reason: String) {
      self.libraryName = libraryName
      self.reason = reason
    }

    /// A sentence naming the library, the problem and the fix.
    public var description: String {
      "libcurl is unavailable: \(reason); EndpointCurl needs \(libraryName) version "
        + "\(CurlLibrary.minimumVersionText) or newer (Debian and Ubuntu: apt-get install libcurl4)"
    }
  }
}
