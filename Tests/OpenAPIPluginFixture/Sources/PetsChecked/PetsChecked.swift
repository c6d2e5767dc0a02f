// The endpoints and models of openapi.yaml beside this file are in Generated/, written by
// `swift package --allow-writing-to-package-directory generate-endpoints --target PetsChecked`.
@_exported import EndpointJSON
