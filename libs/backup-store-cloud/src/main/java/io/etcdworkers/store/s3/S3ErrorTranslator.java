package io.etcdworkers.store.s3;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectStore;
import java.util.Objects;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;

/**
 * Turns what the S3 SDK throws, after its own retries, into a {@link WorkerException} whose
 * code decides the exit code and whose message names the store, the action and what was
 * wrong. It decides by S3 error code and HTTP status, never by message text, and it never has
 * a secret to leak: the SDK's exceptions carry none.
 */
final class S3ErrorTranslator {
    private final String store;

    /** @param store the store's {@link ObjectStore#describe()} */
    S3ErrorTranslator(String store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * @param e what the SDK threw
     * @param action what was being done, for example {@code reading "p/v2/Full-..."}
     */
    WorkerException translate(SdkException e, String action) {
        if (e instanceof AwsServiceException service) {
            return translateService(service, action);
        }
        if (NoCredentialsFoundException.in(e)) {
            return fail(ErrorCode.USAGE, action, "no S3 credentials found; looked in " + CredentialsSearch.WHERE, e);
        }
        if (e instanceof SdkClientException) {
            return fail(
                    ErrorCode.STORE_UNAVAILABLE,
                    action,
                    "the store could not be reached or answered unreadably after retries ("
                            + e.getClass().getSimpleName() + ": " + e.getMessage() + ")",
                    e);
        }
        return fail(ErrorCode.UNEXPECTED, action, e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }

    private WorkerException translateService(AwsServiceException e, String action) {
        int status = e.statusCode();
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        String detail = " (HTTP " + status + (code == null ? "" : ", " + code)
                + (e.requestId() == null ? "" : ", request id " + e.requestId()) + ")";
        String s3Code = code == null ? "" : code;
        if (e instanceof NoSuchBucketException || s3Code.equals("NoSuchBucket")) {
            return fail(ErrorCode.STORE_NOT_FOUND, action, "the bucket does not exist" + detail, e);
        }
        if (e instanceof NoSuchKeyException || s3Code.equals("NoSuchKey")) {
            return fail(
                    ErrorCode.OBJECT_VANISHED,
                    action,
                    "the object does not exist (deleted since it was listed?)" + detail,
                    e);
        }
        if (e instanceof NoSuchUploadException || s3Code.equals("NoSuchUpload")) {
            return fail(
                    ErrorCode.STORE_UNAVAILABLE,
                    action,
                    "the multipart upload vanished" + " (aborted by someone else or a lifecycle rule)" + detail,
                    e);
        }
        String denied = deniedReason(s3Code, status);
        if (denied != null) {
            return fail(ErrorCode.STORE_NOT_FOUND, action, denied + detail, e);
        }
        if (s3Code.equals("InvalidRange") || status == 416) {
            return fail(ErrorCode.TRUNCATED_OBJECT, action, "the range lies beyond the object's end" + detail, e);
        }
        if (status >= 500 || status == 429 || e.isThrottlingException()) {
            return fail(
                    ErrorCode.STORE_UNAVAILABLE,
                    action,
                    "the store kept failing or throttling after retries" + detail,
                    e);
        }
        String message =
                e.awsErrorDetails() == null ? "" : ": " + e.awsErrorDetails().errorMessage();
        return fail(ErrorCode.UNEXPECTED, action, "the store refused the request" + message + detail, e);
    }

    /** Why access failed, or null when it is not an access problem. */
    private static String deniedReason(String code, int status) {
        switch (code) {
            case "SignatureDoesNotMatch":
                return "access denied: the secret access key does not match the access key ID";
            case "InvalidAccessKeyId":
                return "access denied: the store does not know the access key ID";
            case "InvalidToken":
            case "ExpiredToken":
            case "TokenRefreshRequired":
                return "access denied: the session token is invalid or expired";
            case "AuthorizationHeaderMalformed":
                return "access denied: the request was signed for another region than the bucket's";
            case "PermanentRedirect":
                return "the bucket is in another region or needs another endpoint";
            case "AllAccessDisabled":
            case "AccessDenied":
                return "access denied to the bucket for these credentials";
            default:
                return status == 403
                        ? "access denied to the bucket for these credentials"
                        : status == 301 ? "the bucket is in another region or needs another endpoint" : null;
        }
    }

    private WorkerException fail(ErrorCode errorCode, String action, String reason, Throwable cause) {
        return new WorkerException(errorCode, store + ": " + action + " failed: " + reason, cause);
    }
}
