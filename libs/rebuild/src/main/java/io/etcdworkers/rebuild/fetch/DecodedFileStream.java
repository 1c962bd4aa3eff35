package io.etcdworkers.rebuild.fetch;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.ValueFile;
import io.etcdworkers.format.DecodedDeltaFile;
import io.etcdworkers.format.RevisionGroup;
import java.io.IOException;

/**
 * Deltas decoded by the fetch threads themselves ({@link DeltaPrefetcher.Mode#DECODED}), in
 * parallel, and read back here in order on the consumer's thread: the offline fold's stream,
 * whose consumer is CPU-bound and must not wait for a decoder. A delta's decoded events are
 * removed once its end was handed over; its values stay in their {@link ValueFile}, sealed then,
 * which goes once no value the consumer kept points into it.
 */
public final class DecodedFileStream implements DeltaStream {
    private final DeltaPrefetcher prefetcher;
    private FetchedDelta current;
    private DecodedDeltaFile.Reader reader;
    private ValueFile values;

    public DecodedFileStream(DeltaPrefetcher prefetcher) {
        this.prefetcher = prefetcher;
    }

    @Override
    public DeltaItem next() throws InterruptedException {
        if (current == null) {
            if (!prefetcher.hasNext()) {
                return new DeltaItem.Done();
            }
            current = prefetcher.next();
            open(current);
            return new DeltaItem.DeltaStart(current);
        }
        RevisionGroup group = read();
        if (group != null) {
            return new DeltaItem.Group(group, 0);
        }
        FetchedDelta ended = current;
        closeReader();
        current = null;
        DecodingStream.deleteCopy(ended);
        return new DeltaItem.DeltaEnd(ended);
    }

    private void open(FetchedDelta delta) {
        try {
            values = ValueFile.open(DecodedDeltaFile.valuesOf(delta.file()));
            reader = new DecodedDeltaFile.Reader(delta.file(), values);
        } catch (IOException e) {
            throw readFailed(delta, e);
        }
    }

    private RevisionGroup read() {
        try {
            return reader.next();
        } catch (IOException e) {
            throw readFailed(current, e);
        }
    }

    private static WorkerException readFailed(FetchedDelta delta, IOException e) {
        return new WorkerException(
                ErrorCode.LOCAL_IO,
                "cannot read the decoded copy " + delta.file() + " of "
                        + delta.object().key() + ": " + e.getMessage(),
                e);
    }

    /** Ends the current delta: its events are read, and no further value will point into its value file. */
    private void closeReader() {
        try {
            if (reader != null) {
                reader.close();
            }
            if (values != null) {
                values.seal();
            }
        } catch (IOException e) {
            throw readFailed(current, e);
        } finally {
            reader = null;
            values = null;
        }
    }

    @Override
    public void close() {
        try {
            closeReader();
        } catch (WorkerException e) {
            // closing after a failure: the first error is the one reported
        }
        prefetcher.close();
    }
}
