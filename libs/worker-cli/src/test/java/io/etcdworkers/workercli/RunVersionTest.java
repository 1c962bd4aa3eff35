package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.BuildVersion;
import io.etcdworkers.contract.ResultFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A worker names the build's version in its --version, its result JSON and its pushed metrics. */
@Timeout(30)
class RunVersionTest {

    @Test
    void versionIsTheBuildsNotADevelopmentBuild() {
        assertThat(new WorkerVersion().getVersion()).containsExactly(BuildVersion.current());
        assertThat(BuildVersion.current()).doesNotContain("unknown").doesNotContain("development");
    }

    @Test
    void theResultAndTheMetricsCarryIt() {
        ObjectNode result = ResultJson.start("restore");

        assertThat(result.path(ResultFields.VERSION).asText()).isEqualTo(BuildVersion.current());
        assertThat(MetricsPush.exposition(result))
                .contains("etcdworkers_build_info{version=\"" + BuildVersion.current() + "\"} 1\n");
    }
}
