// The names the samples of Security.md assume.
import EndpointTransport
import Foundation

let api = URL(string: "https://api.example.com/v1/")!
let token = "access-token"
let transport = URLSessionHTTPClient()
