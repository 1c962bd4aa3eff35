package io.etcdworkers.workercli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.rebuild.fetch.HeapExhausted;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class WorkerFailuresTest {
    @Test
    void anExhaustedHeapIsOutOfMemoryWhereverItSurfaced() {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space");

        assertThat(WorkerFailures.of(oom).code()).isEqualTo(ErrorCode.OUT_OF_MEMORY);
        // a fetch thread's, wrapped by its Future and then by the worker
        WorkerException wrapped = new WorkerException(
                ErrorCode.UNEXPECTED, "fetch failed", new RuntimeException(new ExecutionException(oom)));
        assertThat(WorkerFailures.of(wrapped).code()).isEqualTo(ErrorCode.OUT_OF_MEMORY);
        // one that happened while cleaning up after another failure
        RuntimeException first = new IllegalStateException("first");
        first.addSuppressed(oom);
        assertThat(WorkerFailures.of(first).code()).isEqualTo(ErrorCode.OUT_OF_MEMORY);
        assertThat(WorkerFailures.of(oom).getMessage()).contains("Java heap", "at most", "MiB", "--memory");
    }

    @Test
    void anExhaustedHeapWhileADeltaWasDecodedOrAppliedNamesThatDelta() {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
        WorkerException decoding = HeapExhausted.whileDecoding("v2/Incr-00000602-00001172-1.gz", oom);
        // as the fold's caller sees a fetch thread's failure: through its Future
        WorkerException failure = WorkerFailures.of(new RuntimeException(new ExecutionException(decoding)));

        assertThat(failure.code()).isEqualTo(ErrorCode.OUT_OF_MEMORY);
        assertThat(failure.getMessage())
                .contains("ran out while decoding delta v2/Incr-00000602-00001172-1.gz: Java heap space", "--memory");
        assertThat(failure.object()).contains("v2/Incr-00000602-00001172-1.gz");

        WorkerException applying = HeapExhausted.whileApplying("v2/Incr-00000602-00001172-1.gz", 900, oom);
        assertThat(WorkerFailures.of(applying).getMessage())
                .contains("ran out while applying revision 900 of delta v2/Incr-00000602-00001172-1.gz");
        assertThat(WorkerFailures.of(oom).object()).isEmpty();
    }

    @Test
    void otherFailuresKeepTheirCodes() {
        assertThat(WorkerFailures.of(new WorkerException(ErrorCode.HASH_MISMATCH, "bad"))
                        .code())
                .isEqualTo(ErrorCode.HASH_MISMATCH);
        assertThat(WorkerFailures.of(new IllegalStateException("bug")).code()).isEqualTo(ErrorCode.UNEXPECTED);
    }
}
