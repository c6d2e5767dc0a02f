// An app that meets the shared names in many files says once, at the top level of its own module,
// which package keeps the plain names, and gives the SDK's types names of their own. A declaration
// in the app's module shadows the imported ones in every file of the module, so no file needs a
// module name afterwards.
import EndpointCore
import Namesakes

// The server framework keeps the plain names...
typealias HTTPRequest = Namesakes.HTTPRequest
typealias HTTPResponse = Namesakes.HTTPResponse
typealias Middleware = Namesakes.Middleware

// ...and the SDK's types are the app's API vocabulary.
typealias APIRequest = EndpointCore.HTTPRequest
typealias APIResponse = EndpointCore.HTTPResponse
typealias APIClient = EndpointCore.HTTPClient
typealias APIMiddleware = EndpointCore.Middleware
