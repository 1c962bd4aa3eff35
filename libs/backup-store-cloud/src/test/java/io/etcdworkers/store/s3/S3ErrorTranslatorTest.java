package io.etcdworkers.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class S3ErrorTranslatorTest {
    private static final String STORE = "S3 bucket \"backups\" at http://127.0.0.1:9000";
    private final S3ErrorTranslator translator = new S3ErrorTranslator(STORE);

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(s3(404, "NoSuchBucket"), ErrorCode.STORE_NOT_FOUND, "the bucket does not exist"),
                Arguments.of(
                        NoSuchBucketException.builder().statusCode(404).build(),
                        ErrorCode.STORE_NOT_FOUND,
                        "the bucket does not exist"),
                Arguments.of(
                        s3(403, "SignatureDoesNotMatch"),
                        ErrorCode.STORE_NOT_FOUND,
                        "secret access key does not match"),
                Arguments.of(s3(403, "InvalidAccessKeyId"), ErrorCode.STORE_NOT_FOUND, "does not know the access key"),
                Arguments.of(s3(400, "ExpiredToken"), ErrorCode.STORE_NOT_FOUND, "session token"),
                Arguments.of(s3(400, "AuthorizationHeaderMalformed"), ErrorCode.STORE_NOT_FOUND, "another region"),
                Arguments.of(s3(301, "PermanentRedirect"), ErrorCode.STORE_NOT_FOUND, "another region"),
                Arguments.of(s3(403, "AccessDenied"), ErrorCode.STORE_NOT_FOUND, "access denied"),
                Arguments.of(s3(403, null), ErrorCode.STORE_NOT_FOUND, "access denied"),
                Arguments.of(s3(404, "NoSuchKey"), ErrorCode.OBJECT_VANISHED, "does not exist"),
                Arguments.of(
                        NoSuchKeyException.builder().statusCode(404).build(),
                        ErrorCode.OBJECT_VANISHED,
                        "does not exist"),
                Arguments.of(s3(404, "NoSuchUpload"), ErrorCode.STORE_UNAVAILABLE, "multipart upload vanished"),
                Arguments.of(s3(416, "InvalidRange"), ErrorCode.TRUNCATED_OBJECT, "beyond the object's end"),
                Arguments.of(s3(503, "SlowDown"), ErrorCode.STORE_UNAVAILABLE, "after retries"),
                Arguments.of(s3(500, "InternalError"), ErrorCode.STORE_UNAVAILABLE, "after retries"),
                Arguments.of(s3(429, null), ErrorCode.STORE_UNAVAILABLE, "after retries"),
                Arguments.of(s3(400, "InvalidArgument"), ErrorCode.UNEXPECTED, "refused the request"),
                Arguments.of(
                        SdkClientException.create("Unable to execute HTTP request: Connection refused"),
                        ErrorCode.STORE_UNAVAILABLE,
                        "could not be reached"));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("cases")
    void mapsByErrorCodeAndStatus(SdkException sdk, ErrorCode code, String reason) {
        WorkerException e = translator.translate(sdk, "reading \"p/v2/Full-1\"");

        assertThat(e.code()).isEqualTo(code);
        assertThat(e.getMessage())
                .startsWith(STORE + ": reading \"p/v2/Full-1\" failed: ")
                .contains(reason);
        assertThat(e.getCause()).isSameAs(sdk);
    }

    @Test
    void namesStatusS3CodeAndRequestId() {
        WorkerException e = translator.translate(s3(403, "SignatureDoesNotMatch"), "listing \"p/\"");

        assertThat(e.getMessage()).contains("HTTP 403", "SignatureDoesNotMatch", "request id REQ-1");
    }

    private static S3Exception s3(int status, String code) {
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .requestId("REQ-1")
                .awsErrorDetails(
                        code == null
                                ? null
                                : AwsErrorDetails.builder()
                                        .errorCode(code)
                                        .errorMessage("message of " + code)
                                        .build())
                .build();
    }
}
