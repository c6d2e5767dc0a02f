// The endpoints and models of openapi.yaml beside this file are generated at build time by the
// EndpointOpenAPIGenerator plugin, configured by endpoint-openapi.json.
@_exported import EndpointJSON
