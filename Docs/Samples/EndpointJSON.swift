// The names the samples of the EndpointJSON module page assume.
import EndpointJSON
import EndpointTransport
import Foundation

let baseURL = URL(string: "https://api.example.com/v1/")!
let client = URLSessionHTTPClient()
