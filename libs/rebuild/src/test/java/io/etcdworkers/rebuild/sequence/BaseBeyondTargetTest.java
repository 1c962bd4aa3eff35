package io.etcdworkers.rebuild.sequence;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.format.SnapshotName;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.store.ObjectInfo;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the refusal says, and the part the rebuild logs when it starts again from an earlier base. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BaseBeyondTargetTest {
    private static final String KEY = "v2/Full-00000000-00000601-1795986606.gz";

    @Test
    void theFindingIsTheMessageUpToWhatFollowsFromIt() {
        SnapshotObject base = new SnapshotObject(
                new ObjectInfo(KEY, 1, Instant.EPOCH),
                SnapshotName.parse("Full-00000000-00000601-1795986606.gz").orElseThrow());

        BaseBeyondTarget e = new BaseBeyondTarget(base, 605, 603);

        assertThat(e.code()).isEqualTo(ErrorCode.USAGE);
        assertThat(e.base()).isSameAs(base);
        assertThat(e.finding())
                .isEqualTo("revision 603 is inside the full snapshot " + KEY
                        + ", whose database holds revisions up to 605");
        assertThat(e.getMessage())
                .isEqualTo(e.finding() + ": the nearest restorable revision from it is 605, "
                        + "and no earlier full snapshot reaches back to 603");
    }
}
