package io.etcdworkers.format;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.codec.CorruptStreamException;
import io.etcdworkers.format.codec.TruncatedStreamException;
import java.io.IOException;
import java.io.InputStream;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decodes one delta snapshot from its decompressed stream into revision groups, streaming: it
 * holds at most one revision group, never the whole delta.
 *
 * <p>The SHA-256 trailer is the authority on corruption: after any decoding problem short of a
 * truncation, the rest of the stream is hashed, and a mismatch is reported as
 * {@link ErrorCode#HASH_MISMATCH}; a hash that matches content that does not decode is
 * {@link ErrorCode#CORRUPT_OBJECT} (an event array left open included); content that ends
 * early with no matching trailer is {@link ErrorCode#TRUNCATED_OBJECT}. Groups are handed to the sink as they complete, so a
 * caller that must not act on unverified data decodes twice (verify first, then apply).
 */
public final class DeltaDecoder {

    /** Receives each revision group as soon as it is complete. */
    @FunctionalInterface
    public interface GroupSink {
        void accept(RevisionGroup group) throws InterruptedException;
    }

    private DeltaDecoder() {}

    /** Verifies and counts without keeping anything. */
    public static DeltaSummary verify(String objectName, InputStream decompressed) throws InterruptedException {
        return decode(objectName, decompressed, group -> {});
    }

    /**
     * Decodes {@code decompressed} (the delta after decompression), verifies the trailing
     * SHA-256 and returns what it found.
     *
     * @param objectName named in every error message
     * @throws WorkerException with the codes described on the class
     */
    public static DeltaSummary decode(String objectName, InputStream decompressed, GroupSink sink)
            throws InterruptedException {
        HashTrailerInputStream content = new HashTrailerInputStream(decompressed);
        EventReader reader = new EventReader(objectName);
        GroupCollector groups = new GroupCollector(objectName, sink);
        WorkerException decodeFailure = null;
        // the trailer is read after the JSON: the reader does not close the stream
        JsonBytes json = new JsonBytes(content);
        try {
            reader.expectArrayStart(json);
            DeltaEvent event;
            while ((event = reader.next(json)) != null) {
                groups.add(event);
            }
            groups.finish();
            if (json.peekOrEnd() >= 0) {
                throw reader.corrupt("content after the end of the event array", null);
            }
        } catch (JsonInput.EndOfInputException e) {
            verifyIncompleteArray(objectName, content, e);
        } catch (TruncatedStreamException e) {
            throw new WorkerException(
                    ErrorCode.TRUNCATED_OBJECT,
                    objectName + ": compressed stream ends early (object cut short?): " + e.getMessage(),
                    e);
        } catch (CorruptStreamException e) {
            throw new WorkerException(
                    ErrorCode.CORRUPT_OBJECT, objectName + ": compressed stream is corrupt: " + e.getMessage(), e);
        } catch (JsonInput.SyntaxException e) {
            decodeFailure = reader.corrupt("invalid JSON: " + e.getMessage(), e);
        } catch (WorkerException e) {
            decodeFailure = e;
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.STORE_UNAVAILABLE, objectName + ": read failed: " + e.getMessage(), e);
        }
        verifyTrailer(objectName, content, decodeFailure);
        return groups.summary(content.contentLength());
    }

    /**
     * The JSON ended before its array did: an object cut short when the trailer does not match
     * (its last 32 bytes are JSON, not a hash); when it matches, the bytes are what the writer
     * wrote and fetching again cannot help.
     */
    private static void verifyIncompleteArray(
            String objectName, HashTrailerInputStream content, JsonInput.EndOfInputException e) {
        String what = objectName + ": content ends before the event array does";
        WorkerException cut =
                new WorkerException(ErrorCode.TRUNCATED_OBJECT, what + " (object cut short?): " + e.getMessage(), e);
        try {
            content.drain();
        } catch (IOException drainFailure) {
            throw cut;
        }
        if (content.trailer().isEmpty() || !content.hashMatches()) {
            throw cut;
        }
        throw new WorkerException(
                ErrorCode.CORRUPT_OBJECT,
                what + ", though its SHA-256 trailer matches: the object was written incomplete: " + e.getMessage(),
                e);
    }

    private static void verifyTrailer(
            String objectName, HashTrailerInputStream content, WorkerException decodeFailure) {
        try {
            content.drain();
        } catch (TruncatedStreamException e) {
            throw new WorkerException(
                    ErrorCode.TRUNCATED_OBJECT,
                    objectName + ": compressed stream ends early (object cut short?): " + e.getMessage(),
                    e);
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.CORRUPT_OBJECT, objectName + ": unreadable: " + e, e);
        }
        if (content.trailer().isEmpty()) {
            throw new WorkerException(
                    ErrorCode.TRUNCATED_OBJECT,
                    objectName + ": shorter than its 32-byte SHA-256 trailer",
                    decodeFailure);
        }
        if (!content.hashMatches()) {
            String detail = decodeFailure == null ? "" : " (decoding also failed: " + decodeFailure.getMessage() + ")";
            throw new WorkerException(
                    ErrorCode.HASH_MISMATCH,
                    String.format(
                            "%s: SHA-256 of the content is %s but its trailer says %s: the object is corrupt%s",
                            objectName,
                            HashTrailerInputStream.hex(content.contentDigest()),
                            HashTrailerInputStream.hex(content.trailer().get()),
                            detail),
                    decodeFailure);
        }
        if (decodeFailure != null) {
            throw decodeFailure;
        }
    }

    /** Builds revision groups and the summary; checks revisions never go backwards. */
    private static final class GroupCollector {
        private final String objectName;
        private final GroupSink sink;
        private final List<DeltaEvent> current = new ArrayList<>();
        private long currentRevision = -1;
        private long firstRevision = -1;
        private long events;
        private long revisions;
        private int largestEvents;
        private long largestBytes;
        private OffsetDateTime firstTime;
        private OffsetDateTime lastTime;

        GroupCollector(String objectName, GroupSink sink) {
            this.objectName = objectName;
            this.sink = sink;
        }

        void add(DeltaEvent event) throws InterruptedException {
            long revision = event.modRevision();
            if (revision < currentRevision) {
                throw new WorkerException(
                        ErrorCode.CORRUPT_OBJECT,
                        String.format(
                                "%s: event %d goes back in revision, from %d to %d",
                                objectName, events, currentRevision, revision));
            }
            if (revision != currentRevision) {
                flush();
                currentRevision = revision;
                if (firstRevision < 0) {
                    firstRevision = revision;
                }
            }
            current.add(event);
            events++;
            if (firstTime == null) {
                firstTime = event.time();
            }
            lastTime = event.time();
        }

        void finish() throws InterruptedException {
            flush();
        }

        private void flush() throws InterruptedException {
            if (current.isEmpty()) {
                return;
            }
            RevisionGroup group = new RevisionGroup(currentRevision, current);
            current.clear();
            revisions++;
            largestEvents = Math.max(largestEvents, group.events().size());
            largestBytes = Math.max(largestBytes, group.payloadBytes());
            sink.accept(group);
        }

        DeltaSummary summary(long jsonBytes) {
            return new DeltaSummary(
                    events,
                    revisions,
                    firstRevision,
                    currentRevision,
                    jsonBytes,
                    largestEvents,
                    largestBytes,
                    Optional.ofNullable(firstTime),
                    Optional.ofNullable(lastTime));
        }
    }
}
