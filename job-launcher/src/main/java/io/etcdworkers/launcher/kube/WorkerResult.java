package io.etcdworkers.launcher.kube;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.ResultFields;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The worker's result as read from its pod's termination message.
 *
 * <p>The fields are the contract's {@link ResultFields}, which the workers write. Parsed loosely:
 * unknown fields are ignored, missing ones are null, and a message that is not a JSON object (with
 * {@code FallbackToLogsOnError} it may be the log's tail) is kept as raw text only.
 *
 * @param raw      the termination message exactly as the kubelet reported it
 * @param kind     {@code restore} or {@code compact}, or null
 * @param outcome  {@code succeeded}, {@code failed} or {@code skipped}, or null
 * @param exitCode the worker's exit code as it reported it, or null
 * @param error    the failure message, or null
 * @param json     whether {@code raw} was a JSON object
 */
public record WorkerResult(String raw, String kind, String outcome, Integer exitCode, String error, boolean json) {
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    public static WorkerResult parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return new WorkerResult(raw == null ? "" : raw, null, null, null, null, false);
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(raw.strip());
        } catch (JacksonException notJson) {
            return new WorkerResult(raw, null, null, null, null, false);
        }
        if (node == null || !node.isObject()) {
            return new WorkerResult(raw, null, null, null, null, false);
        }
        JsonNode code = node.get(ResultFields.EXIT_CODE);
        return new WorkerResult(
                raw,
                text(node, ResultFields.KIND),
                text(node, ResultFields.OUTCOME),
                code != null && code.canConvertToInt() ? code.asInt() : null,
                text(node, ResultFields.ERROR),
                true);
    }

    /** What the worker's exit code means, when it reported one the contract knows (or 0). */
    public Optional<String> exitCodeMeaning() {
        if (exitCode == null) {
            return Optional.empty();
        }
        return exitCode == 0
                ? Optional.of("done, or nothing to do")
                : ErrorCode.of(exitCode).map(ErrorCode::meaning);
    }

    /**
     * A top-level field of the result as compact JSON ({@code null} for a JSON null); empty when the
     * result has no such field or is not JSON.
     */
    public Optional<String> field(String name) {
        if (!json) {
            return Optional.empty();
        }
        try {
            JsonNode v = MAPPER.readTree(raw.strip()).get(name);
            return v == null ? Optional.empty() : Optional.of(v.toString());
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }

    /** The parsed fields, for printing. */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(ResultFields.KIND, kind);
        m.put(ResultFields.OUTCOME, outcome);
        m.put(ResultFields.EXIT_CODE, exitCode);
        m.put(ResultFields.ERROR, error);
        m.values().removeIf(Objects::isNull);
        return m;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.isValueNode() ? v.asString() : v.toString();
    }
}
