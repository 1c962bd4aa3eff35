package io.etcdworkers.testsupport.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A rendered pod template read field by field: every field the translation reads is recorded, and
 * every field it declares without meaning on one machine is recorded with the reason, so that what
 * is left ({@link #unread()}) is what a kubelet would act on and the translation does not: a field
 * the launcher starts to render fails the run until it is handled or declared.
 *
 * <p>Paths are written as in {@code kubectl explain}: {@code spec.containers[0].securityContext.runAsNonRoot}.
 * Reading an object marks the object, not its fields: each field is read (or declared) on its own.
 */
final class TemplateFields {
    private final JsonNode root;
    private final Set<String> read = new HashSet<>();
    private final Set<String> wholeSubtrees = new HashSet<>();
    private final Map<String, String> noMeaning = new LinkedHashMap<>();

    TemplateFields(JsonNode root) {
        this.root = root;
    }

    /** The node at {@code path} (a missing node when absent), marked read. */
    JsonNode get(String path) {
        read.add(path);
        JsonNode node = root;
        for (String step : steps(path)) {
            if (node == null || node.isMissingNode()) {
                return MissingNode.getInstance();
            }
            node = step.startsWith("[")
                    ? node.path(Integer.parseInt(step.substring(1, step.length() - 1)))
                    : node.path(step);
        }
        return node;
    }

    /** The text at {@code path}, or null when absent. */
    String text(String path) {
        JsonNode node = get(path);
        return node.isMissingNode() || node.isNull() ? null : node.asText();
    }

    /** The boolean at {@code path}, or {@code otherwise} when absent. */
    boolean bool(String path, boolean otherwise) {
        JsonNode node = get(path);
        return node.isMissingNode() || node.isNull() ? otherwise : node.asBoolean();
    }

    /** The number at {@code path}, or null when absent. */
    Long number(String path) {
        JsonNode node = get(path);
        return node.isMissingNode() || node.isNull() ? null : node.asLong();
    }

    /** The size of the array at {@code path} (0 when absent), the array marked read. */
    int size(String path) {
        return get(path).size();
    }

    /** Every field under {@code path} read at once (a map the translation takes whole: labels, a Secret's items). */
    JsonNode whole(String path) {
        wholeSubtrees.add(path);
        return get(path);
    }

    /** Declares the field at {@code path} and all under it as meaning nothing on one machine, with the reason. */
    void noMeaning(String path, String why) {
        if (!get(path).isMissingNode()) {
            noMeaning.put(path, why);
            wholeSubtrees.add(path);
        }
    }

    /** The fields present that were declared without meaning, with their reasons. */
    Map<String, String> declaredWithoutMeaning() {
        return Map.copyOf(noMeaning);
    }

    /**
     * Every field present that the translation neither read nor declared: leaves (values, empty
     * objects and arrays) whose own path was not read and that lie under no subtree read whole.
     */
    List<String> unread() {
        List<String> unread = new ArrayList<>();
        walk(root, "", unread);
        return unread;
    }

    private void walk(JsonNode node, String path, List<String> unread) {
        if (!path.isEmpty() && underWhole(path)) {
            return;
        }
        boolean leaf = node.isValueNode() || node.isNull() || node.isEmpty();
        if (leaf) {
            if (!read.contains(path)) {
                unread.add(path + " = " + node);
            }
            return;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "[" + i + "]", unread);
            }
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            walk(field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey(), unread);
        }
    }

    private boolean underWhole(String path) {
        for (String whole : wholeSubtrees) {
            if (path.equals(whole) || path.startsWith(whole + ".") || path.startsWith(whole + "[")) {
                return true;
            }
        }
        return false;
    }

    private static List<String> steps(String path) {
        List<String> steps = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '.' || c == '[') {
                if (current.length() > 0) {
                    steps.add(current.toString());
                    current.setLength(0);
                }
                if (c == '[') {
                    int end = path.indexOf(']', i);
                    steps.add(path.substring(i, end + 1));
                    i = end;
                }
            } else {
                current.append(c);
            }
        }
        if (current.length() > 0) {
            steps.add(current.toString());
        }
        return steps;
    }
}
