package io.etcdworkers.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.testsupport.ExpectedState.Digest;
import io.etcdworkers.testsupport.ExpectedState.Key;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The tests' own digest is the one the fixtures were produced with: over each fixture's
 * {@code expected/keys.jsonl} it gives {@code state.json}'s {@code kv_sha256} and
 * {@code meta_sha256}, so a served keyspace that digests the same is the source's.
 */
class ExpectedStateTest {

    @ParameterizedTest
    @ValueSource(strings = {Fixtures.V0_23_0, Fixtures.V0_41_2})
    void theDigestOfTheExpectedKeysIsTheOneStateJsonNames(String fixture) {
        JsonNode state = ExpectedState.stateJson(fixture);

        Digest digest = Digest.of(ExpectedState.keys(fixture));

        assertThat(digest.keys()).isEqualTo(state.get("keys").asLong());
        assertThat(digest.kvSha256()).isEqualTo(state.get("kv_sha256").asText());
        assertThat(digest.metaSha256()).isEqualTo(state.get("meta_sha256").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {Fixtures.V0_23_0, Fixtures.V0_41_2})
    void withoutLeasesOnlyTheMetaDigestChangesAndItBecomesTheNoLeaseOne(String fixture) {
        JsonNode state = ExpectedState.stateJson(fixture);
        List<Key> withoutLeases = new ArrayList<>();
        ExpectedState.keys(fixture).forEach(k -> withoutLeases.add(k.withoutLease()));

        Digest digest = Digest.of(withoutLeases);

        assertThat(digest.kvSha256()).isEqualTo(state.get("kv_sha256").asText());
        assertThat(digest.metaSha256())
                .isEqualTo(state.get("meta_nolease_sha256").asText())
                .isNotEqualTo(state.get("meta_sha256").asText());
    }
}
