@_exported import EndpointCore
