package io.etcdworkers.store.s3;

import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * No S3 credentials anywhere the worker looks: a configuration error, not a store that is
 * down. Thrown by {@link CredentialsSearch} so that {@link S3ErrorTranslator} can tell it from a
 * network failure by type, never by the SDK's message text.
 */
final class NoCredentialsFoundException extends SdkClientException {
    private static final long serialVersionUID = 1L;

    NoCredentialsFoundException(SdkClientException cause) {
        super(SdkClientException.builder().message("no S3 credentials found").cause(cause));
    }

    /** Whether {@code e} or one of its causes is this exception. */
    static boolean in(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof NoCredentialsFoundException) {
                return true;
            }
        }
        return false;
    }
}
