package io.etcdworkers.store.swift;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.StoreRetry;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends Swift's and Keystone's requests on the JDK's HTTP client with the store's retry policy:
 * a request that gets no answer, or a 5xx, 408, 429 or 498 (Swift's rate limit) answer, is sent
 * again after a backoff, up to {@code maxTries} times; any other answer goes back to the caller,
 * whose business its status is. HTTP/1.1 only: the JDK would otherwise try an h2c upgrade on each
 * plain-http request. Redirects are not followed (neither Swift nor Keystone sends any to a client).
 */
final class SwiftHttp {
    private static final Logger LOG = LoggerFactory.getLogger(SwiftHttp.class);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient client;
    private final StoreRetry retry;

    SwiftHttp(StoreRetry retry) {
        this.retry = Objects.requireNonNull(retry, "retry");
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    StoreRetry retry() {
        return retry;
    }

    /** A request builder with the per-try timeout set. */
    HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(retry.tryTimeout());
    }

    /**
     * Sends the request {@code build} makes (called again for each try) until it gets an answer
     * that is not worth retrying, or the tries are used up (then the last answer, or the last
     * {@link IOException}).
     *
     * @param what names the request for the debug log
     * @throws WorkerException {@link ErrorCode#INTERRUPTED} when interrupted (the flag is restored)
     */
    <T> HttpResponse<T> send(Supplier<HttpRequest> build, HttpResponse.BodyHandler<T> handler, String what)
            throws IOException {
        IOException failure = null;
        for (int attempt = 1; ; attempt++) {
            if (attempt > 1) {
                pause(retry.delayBefore(attempt), what);
            }
            try {
                HttpResponse<T> response = client.send(build.get(), handler);
                if (!retryable(response.statusCode()) || attempt >= retry.maxTries()) {
                    return response;
                }
                LOG.debug(
                        "{}: HTTP {} on try {} of {}; retrying",
                        what,
                        response.statusCode(),
                        attempt,
                        retry.maxTries());
                discard(response);
            } catch (IOException e) {
                failure = e;
                if (attempt >= retry.maxTries()) {
                    throw failure;
                }
                LOG.debug("{}: {} on try {} of {}; retrying", what, e.toString(), attempt, retry.maxTries());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WorkerException(ErrorCode.INTERRUPTED, what + ": interrupted", e);
            }
        }
    }

    /** Whether an answer with this status is worth another try. */
    static boolean retryable(int status) {
        return status >= 500 || status == 408 || status == 429 || status == 498;
    }

    /** Closes a streamed body nobody will read. */
    static void discard(HttpResponse<?> response) {
        if (response.body() instanceof InputStream in) {
            try {
                in.close();
            } catch (IOException e) {
                // The connection is dropped instead of reused: nothing more to do.
            }
        }
    }

    /** Up to {@code limit} bytes of an error answer's streamed body, for its message; closes it. */
    static String errorBody(HttpResponse<?> response, int limit) {
        Object body = response.body();
        if (body instanceof byte[] bytes) {
            return new String(bytes, 0, Math.min(limit, bytes.length), StandardCharsets.UTF_8);
        }
        if (body instanceof String text) {
            return text.length() <= limit ? text : text.substring(0, limit);
        }
        if (body instanceof InputStream in) {
            try (in) {
                return new String(in.readNBytes(limit), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        }
        return "";
    }

    private static void pause(Duration delay, String what) {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkerException(ErrorCode.INTERRUPTED, what + ": interrupted", e);
        }
    }
}
