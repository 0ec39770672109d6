extension HTTPRouter {
    /// `GET /openapi.json`: the service's contract (``ServiceContract``), open to every client
    /// as `/healthz` is: it says what each route takes and answers, and holds nothing secret.
    static let contractRoutes: [HTTPRoute] = [
        HTTPRoute("GET", "/openapi.json", role: nil) { _, _, _ throws(ServiceError) in
            .text(200, ServiceContract.openAPIText, contentType: "application/json")
        },
    ]
}
