package io.etcdworkers.store.s3;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Collection;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpConfigurationOption;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.utils.AttributeMap;

/** Builds the SDK's sync S3 client on the Apache HTTP client from an {@link S3StoreConfig}. */
final class S3ClientFactory {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /**
     * A read that stalls this long is retried (before the body) or fails the stream; lowered to
     * the attempt timeout when that is shorter.
     */
    static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(60);

    private S3ClientFactory() {}

    /** The HTTP client; the caller closes it after the S3 client (the SDK does not own it). */
    static SdkHttpClient httpClient(S3StoreConfig.Tls tls, S3StoreConfig.Retry retry) {
        Duration socketTimeout =
                retry.attemptTimeout().compareTo(SOCKET_TIMEOUT) < 0 ? retry.attemptTimeout() : SOCKET_TIMEOUT;
        ApacheHttpClient.Builder builder = ApacheHttpClient.builder()
                .connectionTimeout(CONNECT_TIMEOUT.compareTo(socketTimeout) < 0 ? CONNECT_TIMEOUT : socketTimeout)
                .socketTimeout(socketTimeout);
        tls.trustedCaCertPem().ifPresent(pem -> {
            TrustManager[] trust = trustManagers(pem);
            builder.tlsTrustManagersProvider(() -> trust);
        });
        if (tls.insecureSkipVerify()) {
            return builder.buildWithDefaults(AttributeMap.builder()
                    .put(SdkHttpConfigurationOption.TRUST_ALL_CERTIFICATES, true)
                    .build());
        }
        return builder.build();
    }

    static S3Client s3Client(S3StoreConfig config, SdkHttpClient httpClient) {
        S3ClientBuilder builder = S3Client.builder()
                .httpClient(httpClient)
                .region(config.region())
                .credentialsProvider(config.credentials())
                .forcePathStyle(config.forcePathStyle())
                .requestChecksumCalculation(config.requestChecksums())
                .responseChecksumValidation(config.responseChecksums())
                .serviceConfiguration(S3Configuration.builder()
                        .chunkedEncodingEnabled(config.chunkedEncoding())
                        .build())
                .overrideConfiguration(o -> o.retryStrategy(retryStrategy(config.retry()))
                        // Without these the SDK bounds nothing but each socket read: a server that
                        // accepts and trickles, or a stalled upload, would hold a call forever.
                        .apiCallAttemptTimeout(config.retry().attemptTimeout())
                        .apiCallTimeout(config.retry().callTimeout()));
        config.endpointOverride().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    /**
     * The SDK's standard strategy (it knows which S3 errors are transient and which are
     * throttling) with our bounds. The circuit breaker is off: a batch job should spend its
     * attempts on each call rather than fail fast after earlier calls used up a token bucket.
     */
    static RetryStrategy retryStrategy(S3StoreConfig.Retry retry) {
        BackoffStrategy backoff = BackoffStrategy.exponentialDelay(retry.baseDelay(), retry.maxBackoff());
        return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(retry.maxAttempts())
                .backoffStrategy(backoff)
                .throttlingBackoffStrategy(backoff)
                .circuitBreakerEnabled(false)
                .build();
    }

    private static TrustManager[] trustManagers(String pem) {
        try {
            Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
            if (certs.isEmpty()) {
                throw new WorkerException(ErrorCode.USAGE, "trustedCaCert holds no PEM certificate");
            }
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate cert : certs) {
                store.setCertificateEntry("trusted-ca-" + i++, cert);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory.getTrustManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw new WorkerException(ErrorCode.USAGE, "trustedCaCert is not a usable PEM certificate", e);
        }
    }
}
