package io.etcdworkers.workercli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.ResultFields;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the one result JSON object of a run: on stdout, in {@code --result-file} when
 * given, and as the pod's termination message ({@code /dev/termination-log}) when that file
 * exists. Stdout and the result file get the whole object; the termination message is kept under Kubernetes' 4 KiB limit by dropping the
 * fields named droppable, in order, then cutting the error, and marking the result {@code "truncated": true}.
 */
public final class ResultReporter {
    /** Kubernetes keeps at most 4096 bytes of a termination message. */
    public static final int TERMINATION_LIMIT = 4000;

    public static final Path DEFAULT_TERMINATION_LOG = Path.of(ResultFields.TERMINATION_LOG);

    /** The most of an error the termination message keeps, in characters. */
    private static final int ERROR_KEEP = 1500;

    private static final Logger LOG = LoggerFactory.getLogger(ResultReporter.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream stdout;
    private final Optional<Path> resultFile;
    private final Path terminationLog;

    public ResultReporter(PrintStream stdout, Optional<Path> resultFile, Path terminationLog) {
        this.stdout = stdout;
        this.resultFile = resultFile;
        this.terminationLog = terminationLog;
    }

    public static ObjectNode newResult() {
        return JSON.createObjectNode();
    }

    /**
     * @param droppable top-level fields that may be removed, first first, to fit the limit
     */
    public void publish(ObjectNode result, List<String> droppable) {
        String full = result.toString();
        stdout.println(full);
        stdout.flush();
        resultFile.ifPresent(file -> write(file, full));
        if (Files.isWritable(terminationLog)) {
            write(terminationLog, fit(result, droppable).toString());
        }
    }

    static ObjectNode fit(ObjectNode result, List<String> droppable) {
        ObjectNode copy = result.deepCopy();
        for (String field : droppable) {
            if (size(copy) <= TERMINATION_LIMIT) {
                break;
            }
            if (copy.remove(field) != null) {
                copy.put(ResultFields.TRUNCATED, true);
            }
        }
        if (size(copy) > TERMINATION_LIMIT && copy.hasNonNull(ResultFields.ERROR)) {
            String error = copy.get(ResultFields.ERROR).asText();
            copy.put(ResultFields.TRUNCATED, true);
            // The limit is in bytes: a character takes 1 to 4 in UTF-8 and up to 6 escaped in JSON.
            // Keep the longest start (at most ERROR_KEEP characters) with which the message fits.
            int fits = 0;
            int tooLong = Math.min(error.length(), ERROR_KEEP) + 1;
            while (tooLong - fits > 1) {
                int keep = (fits + tooLong) >>> 1;
                if (size(withError(copy, error, keep)) <= TERMINATION_LIMIT) {
                    fits = keep;
                } else {
                    tooLong = keep;
                }
            }
            withError(copy, error, fits);
        }
        return copy;
    }

    /** {@code result} with the first {@code keep} characters of {@code error}, never half a surrogate pair. */
    private static ObjectNode withError(ObjectNode result, String error, int keep) {
        int end = keep > 0 && Character.isHighSurrogate(error.charAt(keep - 1)) ? keep - 1 : keep;
        result.put(ResultFields.ERROR, error.substring(0, end) + "...");
        return result;
    }

    private static int size(ObjectNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8).length;
    }

    private static void write(Path file, String json) {
        try {
            Files.writeString(file, json + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            // the result is already on stdout; a missing copy must not turn success into failure
            LOG.warn("could not write the result to {}: {}", file, e.toString());
        }
    }
}
