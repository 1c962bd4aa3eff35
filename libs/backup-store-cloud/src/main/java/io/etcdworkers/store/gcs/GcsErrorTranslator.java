package io.etcdworkers.store.gcs;

import com.google.auth.Retryable;
import com.google.cloud.BaseServiceException;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.util.Objects;

/**
 * Turns what the GCS SDK throws, after its own retries, into a {@link WorkerException}. It
 * decides by type and HTTP status, never by message text:
 * <ul>
 *   <li>a token request that failed (the auth library's exceptions are {@link Retryable}
 *       {@link IOException}s): refused credentials are access denied, an unreachable token
 *       service is the store being unavailable;</li>
 *   <li>an HTTP answer ({@link BaseServiceException#getCode()} above 0): by status, where a 404
 *       means a missing bucket or a vanished object depending on what was asked;</li>
 *   <li>no answer at all (an {@link IOException}): the store could not be reached.</li>
 * </ul>
 * The service's own message is quoted (shortened): GCS names the missing permission there and
 * never echoes a credential; the bearer token travels only in a request header.
 */
final class GcsErrorTranslator {
    private static final int MAX_MESSAGE = 240;

    private final String store;

    /** @param store the store's {@link ObjectStore#describe()} */
    GcsErrorTranslator(String store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** What the request was about: a 404 means another thing for each. */
    enum Target {
        BUCKET,
        OBJECT
    }

    /**
     * @param e what the SDK threw (or an exception whose cause chain holds it)
     * @param action what was being done, for example {@code reading "p/v2/Full-..."}
     */
    WorkerException translate(Throwable e, String action, Target target) {
        if (e instanceof WorkerException worker) {
            return worker;
        }
        IOException auth = findAuthFailure(e);
        if (auth != null) {
            boolean retryable = ((Retryable) auth).isRetryable();
            return fail(
                    retryable ? ErrorCode.STORE_UNAVAILABLE : ErrorCode.STORE_NOT_FOUND,
                    action,
                    retryable
                            ? "no access token: Google's token service kept failing after retries ("
                                    + shorten(auth.getMessage()) + ")"
                            : "access denied: Google's token service refused the credentials ("
                                    + shorten(auth.getMessage()) + ")",
                    e);
        }
        BaseServiceException service = find(e, BaseServiceException.class);
        if (service != null && service.getCode() > 0) {
            return translateStatus(service.getCode(), service.getReason(), service.getMessage(), action, target, e);
        }
        if (find(e, IOException.class) != null) {
            Throwable root = rootCause(e);
            return fail(
                    ErrorCode.STORE_UNAVAILABLE,
                    action,
                    "the store could not be reached or did not answer in time "
                            + "after retries (" + root.getClass().getSimpleName()
                            + (root.getMessage() == null ? "" : ": " + shorten(root.getMessage())) + ")",
                    e);
        }
        return fail(ErrorCode.UNEXPECTED, action, e.getClass().getSimpleName(), e);
    }

    /**
     * An error answer by its HTTP status and the JSON API's {@code reason} (may be null).
     *
     * @param cause the SDK's exception
     */
    WorkerException translateStatus(
            int status, String reason, String message, String action, Target target, Throwable cause) {
        String detail = " (HTTP " + status + (reason == null || reason.isBlank() ? "" : ", " + reason)
                + (message == null || message.isBlank() ? "" : ": " + shorten(message)) + ")";
        if (status == 404) {
            return target == Target.BUCKET
                    ? fail(ErrorCode.STORE_NOT_FOUND, action, "the bucket does not exist" + detail, cause)
                    : fail(
                            ErrorCode.OBJECT_VANISHED,
                            action,
                            "the object does not exist (deleted since it was listed?)" + detail,
                            cause);
        }
        if (status == 412) {
            return fail(
                    ErrorCode.OBJECT_VANISHED,
                    action,
                    "the object changed while it was read (overwritten since it was opened)" + detail,
                    cause);
        }
        if (status == 401) {
            return fail(
                    ErrorCode.STORE_NOT_FOUND,
                    action,
                    "access denied: the credentials were not accepted" + detail,
                    cause);
        }
        if (status == 403) {
            return fail(
                    ErrorCode.STORE_NOT_FOUND,
                    action,
                    "access denied: these credentials may not use the bucket" + detail,
                    cause);
        }
        if (status == 416) {
            return fail(ErrorCode.TRUNCATED_OBJECT, action, "the range lies beyond the object's end" + detail, cause);
        }
        if (status >= 500 || status == 429 || status == 408) {
            return fail(
                    ErrorCode.STORE_UNAVAILABLE,
                    action,
                    "the store kept failing or throttling after retries" + detail,
                    cause);
        }
        return fail(ErrorCode.UNEXPECTED, action, "the store refused the request" + detail, cause);
    }

    private WorkerException fail(ErrorCode errorCode, String action, String reason, Throwable cause) {
        return new WorkerException(errorCode, store + ": " + action + " failed: " + reason, cause);
    }

    /** The auth library's token failure: an IOException that says whether a retry could help. */
    private static IOException findAuthFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IOException io && t instanceof Retryable) {
                return io;
            }
        }
        return null;
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

    /** One line, at most {@value #MAX_MESSAGE} characters: service messages can carry whole bodies. */
    static String shorten(String message) {
        if (message == null) {
            return "";
        }
        String line = message.strip().replaceAll("\\s+", " ");
        return line.length() <= MAX_MESSAGE ? line : line.substring(0, MAX_MESSAGE) + "...";
    }
}
