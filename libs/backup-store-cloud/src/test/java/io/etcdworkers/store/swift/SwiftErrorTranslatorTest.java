package io.etcdworkers.store.swift;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.swift.SwiftErrorTranslator.Target;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What Swift's and Keystone's answers mean for the exit code, and the catalog choice: the answers
 * a one-node Swift does not give on its own (403, 416 beyond a range, 429, 503, a lost connection)
 * are checked here.
 */
class SwiftErrorTranslatorTest {
    private static final String STORE = "swift container \"c\" at https://swift.example/v1/AUTH_p";
    private final SwiftErrorTranslator errors = new SwiftErrorTranslator(() -> STORE);

    @ParameterizedTest
    @CsvSource({
        "404, CONTAINER, STORE_NOT_FOUND, the container does not exist",
        "404, OBJECT, OBJECT_VANISHED, the object does not exist",
        "412, OBJECT, OBJECT_VANISHED, the object changed while it was read",
        "401, CONTAINER, STORE_NOT_FOUND, access denied: Swift refused a fresh token",
        "403, OBJECT, STORE_NOT_FOUND, access denied: this user may not use the container",
        "416, OBJECT, TRUNCATED_OBJECT, the range lies beyond the object's end",
        "422, CONTAINER, STORE_UNAVAILABLE, ETag mismatch",
        "429, CONTAINER, STORE_UNAVAILABLE, kept failing or throttling",
        "498, CONTAINER, STORE_UNAVAILABLE, kept failing or throttling",
        "503, OBJECT, STORE_UNAVAILABLE, kept failing or throttling",
        "400, CONTAINER, UNEXPECTED, the store refused the request"
    })
    void aSwiftAnswerIsClassifiedByItsStatus(int status, Target target, ErrorCode code, String reason) {
        WorkerException e = errors.status(status, "tx123", "reading \"p/v2/Full-1\"", target);

        assertThat(e.code()).isEqualTo(code);
        assertThat(e.getMessage())
                .startsWith(STORE + ": reading \"p/v2/Full-1\" failed: ")
                .contains(reason, "HTTP " + status, "transaction tx123");
    }

    @ParameterizedTest
    @CsvSource({
        "401, STORE_NOT_FOUND, refused the credentials",
        "403, STORE_NOT_FOUND, refused the credentials",
        "404, USAGE, did not take the login",
        "400, USAGE, did not take the login",
        "503, STORE_UNAVAILABLE, kept failing after retries",
        "418, UNEXPECTED, refused the login"
    })
    void aLoginAnswerIsClassifiedByItsStatusAndQuotesKeystone(int status, ErrorCode code, String reason) {
        WorkerException e = errors.login(
                status, "The request you have made requires authentication.", "https://k.example/v3", "logging in");

        assertThat(e.code()).isEqualTo(code);
        assertThat(e.getMessage())
                .contains(
                        STORE,
                        "https://k.example/v3",
                        reason,
                        "HTTP " + status + ": The request you have made requires authentication.");
    }

    @Test
    void noAnswerIsAStoreThatCouldNotBeReachedOrDidNotAnswerInTime() {
        WorkerException refused = errors.unreachable(
                new ConnectException("Connection refused"), "listing \"p/\"", "https://swift.example/v1/AUTH_p");
        WorkerException slow = errors.unreachable(
                new HttpTimeoutException("request timed out"), "listing \"p/\"", "https://swift.example/v1/AUTH_p");

        assertThat(refused.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
        assertThat(refused.getMessage()).contains("could not be reached after retries", "ConnectException");
        assertThat(slow.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
        assertThat(slow.getMessage()).contains("did not answer in time");
    }

    @Test
    void theCatalogGivesTheFirstPublicObjectStoreEndpointOfTheRegion() throws Exception {
        var token = new ObjectMapper().readTree("""
                {"catalog": [
                  {"type": "identity", "endpoints": [{"interface": "public", "region": "R1", "url": "https://k/v3"}]},
                  {"type": "object-store", "name": "swift", "endpoints": [
                    {"interface": "internal", "region": "R1", "url": "http://internal/v1/AUTH_p"},
                    {"interface": "public", "region": "R1", "region_id": "R1", "url": "https://r1/v1/AUTH_p"},
                    {"interface": "public", "region": "R2", "region_id": "R2", "url": "https://r2/v1/AUTH_p"}]}]}
                """);

        assertThat(KeystoneCatalog.objectStore(token, Optional.empty(), "k"))
                .isEqualTo(new KeystoneCatalog.Endpoint("https://r1/v1/AUTH_p", "R1"));
        assertThat(KeystoneCatalog.objectStore(token, Optional.of("R2"), "k").url())
                .isEqualTo("https://r2/v1/AUTH_p");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> KeystoneCatalog.objectStore(token, Optional.of("R3"), "https://k/v3"))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
                    assertThat(e.getMessage())
                            .contains(
                                    "has no public object-store endpoint in region R3",
                                    "internal in R1, public in R1, public in R2",
                                    "OS_REGION_NAME");
                });
    }

    @Test
    void aVersionlessAuthUrlIsAskedForItsV3() throws Exception {
        var versions = new ObjectMapper().readTree("""
                {"versions": {"values": [
                  {"id": "v2.0", "status": "deprecated", "links": [{"rel": "self", "href": "https://k/v2.0/"}]},
                  {"id": "v3.14", "status": "stable", "links": [{"rel": "self", "href": "https://k/v3/"}]}]}}
                """);

        assertThat(SwiftAuthenticator.chooseV3(versions, "https://k/")).contains("https://k/v3/");
        assertThat(SwiftAuthenticator.baseEndpoint("https://k:5000/identity/v3/"))
                .isEqualTo("https://k:5000/identity/");
        assertThat(SwiftAuthenticator.baseEndpoint("https://k:5000/")).isEqualTo("https://k:5000/");
    }
}
