package io.etcdworkers.rebuild.fetch;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;

/**
 * The heap ran out while a delta was decoded or applied: {@link ErrorCode#OUT_OF_MEMORY} naming
 * that delta, so the result says which object needs the memory (one huge value, a large
 * transaction). Built once the stack is unwound, when the delta's garbage is collectable again.
 */
public final class HeapExhausted {
    private HeapExhausted() {}

    public static WorkerException whileDecoding(String delta, OutOfMemoryError e) {
        return new WorkerException(ErrorCode.OUT_OF_MEMORY, "while decoding delta " + delta, delta, e);
    }

    public static WorkerException whileApplying(String delta, long revision, OutOfMemoryError e) {
        return new WorkerException(
                ErrorCode.OUT_OF_MEMORY, "while applying revision " + revision + " of delta " + delta, delta, e);
    }
}
