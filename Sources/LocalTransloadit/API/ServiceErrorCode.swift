/// The error codes the service sends: `error` of an error answer, or of a failed Assembly's status.
///
/// The raw value is the code on the wire, Transloadit's where it has one; docs/local-service.md
/// lists each with its HTTP status. A fault plan may name a code of its own for the Assemblies it
/// fails (`assemblies.error`), which is why ``AssemblyFailure`` keeps its code as text.
enum ServiceErrorCode: String, Sendable, Hashable {
    // MARK: Routes and the service itself

    /// No route for this method and path.
    case server404 = "SERVER_404"
    /// A machine going away (`machines.cycle_after`): clients ask the API host again.
    case server503 = "SERVER_503"
    case internalServerError = "INTERNAL_SERVER_ERROR"
    /// An injected 502.
    case badGateway = "BAD_GATEWAY"
    /// An injected 503.
    case serviceUnavailable = "SERVICE_UNAVAILABLE"

    // MARK: Requests

    /// Malformed multipart, or an oversized urlencoded body.
    case invalidFormData = "INVALID_FORM_DATA"
    /// The form fields of one creation or replay are over the service's limit (its own code).
    case assemblyFieldsTooLarge = "ASSEMBLY_FIELDS_TOO_LARGE"
    /// `params` is not a JSON object, or one of its members is out of range or of the wrong kind
    /// (a listing's page, a Template's name, `require_signature_auth`, `reparse_template`).
    case invalidParamsField = "INVALID_PARAMS_FIELD"
    /// Creations over the per-minute limit (answered 413).
    case rateLimitReached = "RATE_LIMIT_REACHED"
    /// Status requests over the per-Assembly, per-second limit (answered 429).
    case assemblyStatusFetchingRateLimitReached = "ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED"
    /// A client-chosen Assembly ID that exists.
    case doNotReuseAssemblyIDs = "DO_NOT_REUSE_ASSEMBLY_IDS"
    /// `tus_num_expected_upload_files` (or `num_expected_upload_files`) is not a whole number in range.
    case assemblyInvalidNumExpectedUploadFilesParam = "ASSEMBLY_INVALID_NUM_EXPECTED_UPLOAD_FILES_PARAM"
    case assemblyNotFound = "ASSEMBLY_NOT_FOUND"
    /// A replay of a running Assembly, of one that never received all its uploads, or of one whose uploads are gone.
    case assemblyCannotBeReplayed = "ASSEMBLY_CANNOT_BE_REPLAYED"
    case fileNotFound = "FILE_NOT_FOUND"
    /// A temporary file's eleventh fetch.
    case fileFetchLimitReached = "FILE_FETCH_LIMIT_REACHED"
    /// The Assembly's files are past their lifetime and deleted.
    case fileExpired = "FILE_EXPIRED"

    // MARK: Auth

    case noParamsField = "NO_PARAMS_FIELD"
    case noAuthParameter = "NO_AUTH_PARAMETER"
    case noAuthKeyParameter = "NO_AUTH_KEY_PARAMETER"
    /// An auth key other than the service's.
    case getAccountUnknownAuthKey = "GET_ACCOUNT_UNKNOWN_AUTH_KEY"
    /// Signatures are required and none was sent.
    case noSignatureField = "NO_SIGNATURE_FIELD"
    case noAuthExpiresParameter = "NO_AUTH_EXPIRES_PARAMETER"
    /// The signature does not match the params signed with the service's secret.
    case invalidSignature = "INVALID_SIGNATURE"
    /// `auth.expires` in no form the service reads.
    case invalidAuthExpiresParameter = "INVALID_AUTH_EXPIRES_PARAMETER"
    /// `auth.expires` in the past.
    case authExpired = "AUTH_EXPIRED"
    /// Signed params accepted before and not yet expired.
    case signatureReuseDetected = "SIGNATURE_REUSE_DETECTED"

    // MARK: Templates and instructions

    /// `template_id` is not a non-empty string.
    case noTemplateID = "NO_TEMPLATE_ID"
    case templateNotFound = "TEMPLATE_NOT_FOUND"
    /// The request sets `steps` and its Template does not allow that.
    case templateDeniesStepsOverride = "TEMPLATE_DENIES_STEPS_OVERRIDE"
    /// A Template creation or edit whose `template` is missing, not JSON, not an object, or holds `steps`
    /// or `allow_steps_override` of the wrong kind.
    case invalidTemplateField = "INVALID_TEMPLATE_FIELD"
    /// Neither `steps` nor `template_id`.
    case assemblyNoSteps = "ASSEMBLY_NO_STEPS"
    /// `steps` or a step is not an object, a step has no robot, or `:original` has another robot.
    case assemblyInvalidSteps = "ASSEMBLY_INVALID_STEPS"
    case assemblyEmptySteps = "ASSEMBLY_EMPTY_STEPS"
    /// A step's `use` names no step.
    case assemblyStepUnknownUse = "ASSEMBLY_STEP_UNKNOWN_USE"
    /// A step's `use` has the wrong shape, or steps use each other in a cycle.
    case assemblyStepInvalidUse = "ASSEMBLY_STEP_INVALID_USE"
    /// A step names a Robot the service does not have.
    case assemblyStepUnknownRobot = "ASSEMBLY_STEP_UNKNOWN_ROBOT"

    // MARK: Robots

    /// An `/image/resize` step's options are invalid.
    case imageResizeValidation = "IMAGE_RESIZE_VALIDATION"
    /// An `/image/resize` step could not resize a file.
    case imageResizeError = "IMAGE_RESIZE_ERROR"
    /// A step failed for a reason of the service's own (the default of an injected execution fault).
    case internalCommandError = "INTERNAL_COMMAND_ERROR"
    /// An export step could not store a file.
    case s3StoreError = "S3_STORE_ERROR"

    // MARK: Import Robots

    /// An `/s3/import` or `/minio/import` step's options are invalid (the service's name, after `IMAGE_RESIZE_VALIDATION`).
    case s3ImportValidation = "S3_IMPORT_VALIDATION"
    /// An `/http/import` step's options are invalid (the service's name).
    case httpImportValidation = "HTTP_IMPORT_VALIDATION"
    /// A bucket import names Template Credentials the service does not hold (the service's name).
    case s3ImportCredentialsNotFound = "S3_IMPORT_CREDENTIALS_NOT_FOUND"
    /// A bucket import's key (or its bucket) does not exist: 404, `NoSuchKey`, `NoSuchBucket` (the service's name).
    case s3ImportNotFound = "S3_IMPORT_NOT_FOUND"
    /// The bucket refused the credentials: 401, 403, `AccessDenied`, `SignatureDoesNotMatch`, `InvalidAccessKeyId` (the service's name).
    case s3ImportAccessDenied = "S3_IMPORT_ACCESS_DENIED"
    /// A bucket import failed otherwise: no answer, another error, a body over the bound or cut short (the service's name).
    case s3ImportError = "S3_IMPORT_ERROR"
    /// An import's URL or host is one the service does not fetch: credentials in it, a link-local or metadata address,
    /// this machine or a private network without test endpoints allowed (the service's name).
    case importURLRefused = "IMPORT_URL_REFUSED"
    /// An `/http/import` fetch failed: no answer, a status other than 2xx, a body over the bound or cut short
    /// (node-sdk's `checkResult` names the code).
    case importFileError = "IMPORT_FILE_ERROR"
}
