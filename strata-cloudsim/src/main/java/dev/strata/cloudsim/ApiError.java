package dev.strata.cloudsim;

/** A refused request: HTTP status, a machine-readable code, a message. */
final class ApiError extends Exception {
    final int status;
    final String code;

    ApiError(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    static ApiError badRequest(String message) {
        return new ApiError(400, "InvalidParameter", message);
    }

    static ApiError notFound(String message) {
        return new ApiError(404, "NotFound", message);
    }

    static ApiError conflict(String code, String message) {
        return new ApiError(409, code, message);
    }
}
