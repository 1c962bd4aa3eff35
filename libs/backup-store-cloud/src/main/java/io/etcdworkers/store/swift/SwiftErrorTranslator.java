package io.etcdworkers.store.swift;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Turns what a Swift or Keystone request ended with, after the retries, into a
 * {@link WorkerException}: decided by HTTP status and exception type, never by message text.
 * Swift's own error bodies are not quoted (they say no more than the status); Keystone's
 * {@code error.message} is, shortened (it names what is wrong and never echoes a credential).
 * Tokens travel only in request headers and appear in no message.
 */
final class SwiftErrorTranslator {
    private static final int MAX_MESSAGE = 240;

    private final Supplier<String> store;

    /** @param store the store's {@link ObjectStore#describe()}, asked at each failure (it names the account once known) */
    SwiftErrorTranslator(Supplier<String> store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** What a request was about: a 404 means another thing for each. */
    enum Target {
        CONTAINER,
        OBJECT
    }

    /**
     * An error answer of Swift.
     *
     * @param transId Swift's {@code X-Trans-Id} (may be null), for the operator's logs
     */
    WorkerException status(int status, String transId, String action, Target target) {
        String detail =
                " (HTTP " + status + (transId == null || transId.isBlank() ? "" : ", transaction " + transId) + ")";
        if (status == 404) {
            return target == Target.CONTAINER
                    ? fail(ErrorCode.STORE_NOT_FOUND, action, "the container does not exist" + detail)
                    : fail(
                            ErrorCode.OBJECT_VANISHED,
                            action,
                            "the object does not exist (deleted since it was listed?)" + detail);
        }
        if (status == 412) {
            return fail(
                    ErrorCode.OBJECT_VANISHED,
                    action,
                    "the object changed while it was read (overwritten since it was opened)" + detail);
        }
        if (status == 401) {
            return fail(ErrorCode.STORE_NOT_FOUND, action, "access denied: Swift refused a fresh token" + detail);
        }
        if (status == 403) {
            return fail(
                    ErrorCode.STORE_NOT_FOUND,
                    action,
                    "access denied: this user may not use the container (it "
                            + "needs an operator role, such as swiftoperator, on the project)" + detail);
        }
        if (status == 416) {
            return fail(ErrorCode.TRUNCATED_OBJECT, action, "the range lies beyond the object's end" + detail);
        }
        if (status == 422) {
            return fail(
                    ErrorCode.STORE_UNAVAILABLE,
                    action,
                    "Swift received other bytes than were sent (ETag " + "mismatch) on every try" + detail);
        }
        if (SwiftHttp.retryable(status)) {
            return fail(
                    ErrorCode.STORE_UNAVAILABLE, action, "the store kept failing or throttling after retries" + detail);
        }
        return fail(ErrorCode.UNEXPECTED, action, "the store refused the request" + detail);
    }

    /**
     * An error answer of the login service (Keystone, or tempauth's {@code /auth/v1.0}).
     *
     * @param authUrl where the login went
     * @param message Keystone's {@code error.message} (may be empty)
     */
    WorkerException login(int status, String message, String authUrl, String action) {
        String detail =
                " (HTTP " + status + (message == null || message.isBlank() ? "" : ": " + shorten(message)) + ")";
        if (status == 401 || status == 403) {
            return fail(
                    ErrorCode.STORE_NOT_FOUND,
                    action,
                    "access denied: " + authUrl + " refused the credentials" + detail);
        }
        if (status == 404 || status == 400 || status == 405) {
            return fail(
                    ErrorCode.USAGE,
                    action,
                    authUrl + " did not take the login (is authURL Keystone's v3 URL, or "
                            + "a tempauth URL ending in /auth/v1.0?)" + detail);
        }
        if (SwiftHttp.retryable(status)) {
            return fail(ErrorCode.STORE_UNAVAILABLE, action, authUrl + " kept failing after retries" + detail);
        }
        return fail(ErrorCode.UNEXPECTED, action, authUrl + " refused the login" + detail);
    }

    /** No answer at all, after the retries. */
    WorkerException unreachable(IOException e, String action, String where) {
        String what = e instanceof HttpTimeoutException ? "did not answer in time" : "could not be reached";
        return new WorkerException(
                ErrorCode.STORE_UNAVAILABLE,
                store.get() + ": " + action + " failed: " + where
                        + " " + what + " after retries (" + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + shorten(e.getMessage())) + ")",
                e);
    }

    /** Anything else that went wrong (an answer that does not parse, say). */
    WorkerException fail(ErrorCode code, String action, String reason) {
        return new WorkerException(code, store.get() + ": " + action + " failed: " + reason);
    }

    /** One line, at most {@value #MAX_MESSAGE} characters. */
    static String shorten(String message) {
        if (message == null) {
            return "";
        }
        String line = message.strip().replaceAll("\\s+", " ");
        return line.length() <= MAX_MESSAGE ? line : line.substring(0, MAX_MESSAGE) + "...";
    }
}
