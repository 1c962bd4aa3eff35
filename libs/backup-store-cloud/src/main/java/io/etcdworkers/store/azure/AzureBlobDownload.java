package io.etcdworkers.store.azure;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.Context;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.azure.AzureErrorTranslator.Target;
import io.etcdworkers.store.cloud.LengthCheckedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * One GET of a blob (or a range of it) through the client's own pipeline (shared-key signing,
 * retries, timeouts), its body streamed as it arrives.
 *
 * <p>Why not the SDK's {@code openInputStream}/{@code downloadStream}: in azure-storage-blob
 * 12.35 they run on the asynchronous stack, where a retried 5xx answer over the JDK HTTP client
 * fails with {@code IllegalStateException: This publisher has already one subscriber} instead of
 * being retried (seen against Azurite behind {@code FaultProxy}). The synchronous pipeline
 * retries correctly, and streams: no chunk of the blob is held in memory.
 */
final class AzureBlobDownload {
    private static final HttpHeaderName RANGE = HttpHeaderName.fromString("x-ms-range");
    private static final HttpHeaderName ERROR_CODE = HttpHeaderName.fromString("x-ms-error-code");
    private static final HttpHeaderName REQUEST_ID = HttpHeaderName.fromString("x-ms-request-id");
    private static final HttpHeaderName VERSION = HttpHeaderName.fromString("x-ms-version");

    private final HttpPipeline pipeline;
    private final AzureErrorTranslator errors;
    private final String store;
    private final String serviceVersion;

    /** @param serviceVersion the REST API version the client speaks (shared-key signing depends on it) */
    AzureBlobDownload(HttpPipeline pipeline, String serviceVersion, AzureErrorTranslator errors, String store) {
        this.pipeline = pipeline;
        this.serviceVersion = serviceVersion;
        this.errors = errors;
        this.store = store;
    }

    /**
     * The body of {@code blobUrl} ({@code range}: {@code offset}, {@code length}), checked to be
     * exactly as long as the store announced (whole) or as asked (range).
     */
    InputStream open(String blobUrl, String key, Optional<long[]> range) {
        String action = "reading \"" + key + "\""
                + range.map(r -> " at " + r[0] + "+" + r[1]).orElse("");
        // Shared-key signing reads both headers from the request (an absent length signs as "null").
        HttpRequest request = new HttpRequest(HttpMethod.GET, blobUrl)
                .setHeader(VERSION, serviceVersion)
                .setHeader(HttpHeaderName.CONTENT_LENGTH, "0");
        range.ifPresent(r -> request.setHeader(RANGE, "bytes=" + r[0] + "-" + (r[0] + r[1] - 1)));
        HttpResponse response;
        try {
            response = pipeline.sendSync(request, Context.NONE);
        } catch (RuntimeException e) {
            throw errors.translate(e, action, Target.BLOB);
        }
        int status = response.getStatusCode();
        if (status >= 300) {
            String code = response.getHeaderValue(ERROR_CODE);
            String requestId = response.getHeaderValue(REQUEST_ID);
            response.close();
            throw errors.translateStatus(status, code, requestId, action, Target.BLOB, null);
        }
        long expected;
        if (range.isPresent()) {
            long[] r = range.get();
            String contentRange = response.getHeaderValue(HttpHeaderName.CONTENT_RANGE);
            if (status != 206
                    || contentRange == null
                    || !contentRange.startsWith("bytes " + r[0] + "-" + (r[0] + r[1] - 1) + "/")) {
                response.close();
                long size = totalSize(contentRange);
                if (size >= 0 && size < r[0] + r[1]) {
                    throw new WorkerException(
                            ErrorCode.TRUNCATED_OBJECT,
                            store + ": \"" + key + "\" has " + size + " bytes, fewer than the " + (r[0] + r[1])
                                    + " asked for");
                }
                throw new WorkerException(
                        ErrorCode.STORE_UNAVAILABLE,
                        store + ": " + action + " got HTTP " + status + " with Content-Range " + contentRange);
            }
            expected = r[1];
        } else {
            String length = response.getHeaderValue(HttpHeaderName.CONTENT_LENGTH);
            if (length == null) {
                response.close();
                throw new WorkerException(
                        ErrorCode.STORE_UNAVAILABLE,
                        store + ": " + action + " failed: the store "
                                + "sent no Content-Length, so a cut-short body would go unnoticed");
            }
            expected = Long.parseLong(length.strip());
        }
        InputStream body = new ClosingResponse(response.getBodyAsInputStreamSync(), response);
        return new LengthCheckedInputStream(
                body,
                expected,
                store + ": \"" + key + "\""
                        + range.map(r -> " at " + r[0] + "+" + r[1]).orElse(""));
    }

    /** The total of a {@code bytes a-b/total} Content-Range, or -1 when it does not say. */
    private static long totalSize(String contentRange) {
        if (contentRange == null || contentRange.indexOf('/') < 0) {
            return -1;
        }
        try {
            return Long.parseLong(
                    contentRange.substring(contentRange.indexOf('/') + 1).strip());
        } catch (NumberFormatException e) {
            // "*" (unknown total): the caller reports the raw header.
            return -1;
        }
    }

    /** Closing the body releases the response (and its connection) too. */
    private static final class ClosingResponse extends FilterInputStream {
        private final HttpResponse response;

        ClosingResponse(InputStream in, HttpResponse response) {
            super(in);
            this.response = response;
        }

        @Override
        public void close() throws IOException {
            try {
                super.close();
            } finally {
                response.close();
            }
        }
    }
}
