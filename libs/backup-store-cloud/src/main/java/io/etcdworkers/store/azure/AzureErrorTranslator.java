package io.etcdworkers.store.azure;

import com.azure.core.exception.HttpResponseException;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * Turns what the Azure SDK throws, after its own retries, into a {@link WorkerException}. It
 * decides by the storage error code ({@code x-ms-error-code}) and HTTP status, never by message
 * text, and it never quotes the service's message (Azure's answer to a bad signature echoes the
 * string it signed); the shared key is in neither.
 */
final class AzureErrorTranslator {
    private final String store;

    /** @param store the store's {@link ObjectStore#describe()} */
    AzureErrorTranslator(String store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** What the request was about: a missing resource means another thing for each. */
    enum Target {
        CONTAINER,
        BLOB
    }

    /**
     * @param e what the SDK threw (or an exception whose cause chain holds it)
     * @param action what was being done, for example {@code reading "p/v2/Full-..."}
     */
    WorkerException translate(Throwable e, String action, Target target) {
        if (e instanceof WorkerException worker) {
            return worker;
        }
        HttpResponseException response = find(e, HttpResponseException.class);
        if (response != null) {
            return translateResponse(response, action, target);
        }
        if (find(e, IOException.class) != null || find(e, TimeoutException.class) != null) {
            Throwable root = rootCause(e);
            return fail(
                    ErrorCode.STORE_UNAVAILABLE,
                    action,
                    "the store could not be reached or did not answer in time "
                            + "after retries (" + root.getClass().getSimpleName()
                            + (root.getMessage() == null ? "" : ": " + root.getMessage()) + ")",
                    e);
        }
        return fail(ErrorCode.UNEXPECTED, action, e.getClass().getSimpleName(), e);
    }

    private WorkerException translateResponse(HttpResponseException e, String action, Target target) {
        int status = e.getResponse() == null ? 0 : e.getResponse().getStatusCode();
        BlobErrorCode blobCode = e instanceof BlobStorageException blob ? blob.getErrorCode() : null;
        String requestId = e.getResponse() == null ? null : e.getResponse().getHeaderValue("x-ms-request-id");
        return translateStatus(status, blobCode == null ? null : blobCode.toString(), requestId, action, target, e);
    }

    /**
     * An error answer by its status and storage error code ({@code x-ms-error-code}, may be null).
     *
     * @param cause the SDK's exception, or null when the answer was read directly
     */
    WorkerException translateStatus(
            int status, String errorCode, String requestId, String action, Target target, Throwable cause) {
        BlobErrorCode code = errorCode == null || errorCode.isBlank() ? null : BlobErrorCode.fromString(errorCode);
        return classify(status, code, requestId, action, target, cause);
    }

    private WorkerException classify(
            int status, BlobErrorCode code, String requestId, String action, Target target, Throwable e) {
        String detail = " (HTTP " + status + (code == null ? "" : ", " + code)
                + (requestId == null ? "" : ", request id " + requestId) + ")";
        if (BlobErrorCode.CONTAINER_NOT_FOUND.equals(code)
                || (status == 404 && code == null && target == Target.CONTAINER)) {
            return fail(ErrorCode.STORE_NOT_FOUND, action, "the container does not exist" + detail, e);
        }
        if (BlobErrorCode.BLOB_NOT_FOUND.equals(code) || (status == 404 && code == null)) {
            return fail(
                    ErrorCode.OBJECT_VANISHED,
                    action,
                    "the blob does not exist (deleted since it was listed?)" + detail,
                    e);
        }
        if (BlobErrorCode.CONDITION_NOT_MET.equals(code) || status == 412) {
            return fail(
                    ErrorCode.OBJECT_VANISHED,
                    action,
                    "the blob changed while it was read (overwritten since it was opened)" + detail,
                    e);
        }
        if (status == 403 || BlobErrorCode.AUTHENTICATION_FAILED.equals(code)) {
            String why =
                    BlobErrorCode.AUTHENTICATION_FAILED.equals(code) || BlobErrorCode.AUTHORIZATION_FAILURE.equals(code)
                            ? "the storageKey does not sign for the storageAccount (wrong key or account)"
                            : "these credentials may not use the container";
            return fail(ErrorCode.STORE_NOT_FOUND, action, "access denied: " + why + detail, e);
        }
        if (BlobErrorCode.INVALID_RANGE.equals(code) || status == 416) {
            return fail(ErrorCode.TRUNCATED_OBJECT, action, "the range lies beyond the blob's end" + detail, e);
        }
        if (status >= 500 || status == 429 || status == 408) {
            return fail(
                    ErrorCode.STORE_UNAVAILABLE,
                    action,
                    "the store kept failing or throttling after retries" + detail,
                    e);
        }
        return fail(ErrorCode.UNEXPECTED, action, "the store refused the request" + detail, e);
    }

    private WorkerException fail(ErrorCode errorCode, String action, String reason, Throwable cause) {
        return new WorkerException(errorCode, store + ": " + action + " failed: " + reason, cause);
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
