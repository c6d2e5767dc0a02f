// The names the samples of GettingStarted.md assume.
import EndpointTransport

let client = URLSessionHTTPClient()
