package io.etcdworkers.testsupport.pod;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A container's environment as a kubelet makes it: the API server's service variables first
 * ({@code KUBERNETES_SERVICE_HOST} and the rest: every pod has them, whatever
 * {@code enableServiceLinks} says), then {@code env} in order, each value with {@code $(NAME)}
 * references to the variables before it expanded ({@code $$} is a {@code $}); {@code fieldRef}
 * values from the pod ({@code metadata.name}, {@code .namespace}, {@code .uid}, a label or an
 * annotation), {@code secretKeyRef} values from the Secret the test gave (a missing key fails the
 * pod, as the kubelet's {@code CreateContainerConfigError}, unless {@code optional}).
 */
final class PodEnvironment {
    private PodEnvironment() {}

    /** What the pod is, for {@code fieldRef}s. */
    record PodIdentity(String name, String namespace, String uid, JsonNode labels, JsonNode annotations) {}

    static Map<String, String> resolve(
            TemplateFields fields,
            String container,
            PodIdentity pod,
            Map<String, Map<String, byte[]>> secrets,
            ClusterAccess cluster) {
        Map<String, String> env = new LinkedHashMap<>();
        if (cluster != null) {
            String port = Integer.toString(cluster.port());
            env.put("KUBERNETES_SERVICE_HOST", cluster.host());
            env.put("KUBERNETES_SERVICE_PORT", port);
            env.put("KUBERNETES_SERVICE_PORT_HTTPS", port);
            env.put("KUBERNETES_PORT", "tcp://" + cluster.host() + ":" + port);
        }
        int count = fields.size(container + ".env");
        for (int i = 0; i < count; i++) {
            String at = container + ".env[" + i + "]";
            String name = fields.text(at + ".name");
            String value = fields.text(at + ".value");
            if (value != null) {
                env.put(name, expand(value, env));
                continue;
            }
            if (!fields.get(at + ".valueFrom.fieldRef").isMissingNode()) {
                fields.text(at + ".valueFrom.fieldRef.apiVersion");
                env.put(name, field(fields.text(at + ".valueFrom.fieldRef.fieldPath"), pod));
            } else if (!fields.get(at + ".valueFrom.secretKeyRef").isMissingNode()) {
                String secret = fields.text(at + ".valueFrom.secretKeyRef.name");
                String key = fields.text(at + ".valueFrom.secretKeyRef.key");
                boolean optional = fields.bool(at + ".valueFrom.secretKeyRef.optional", false);
                byte[] bytes = secrets.getOrDefault(secret, Map.of()).get(key);
                if (bytes == null && !optional) {
                    throw new IllegalStateException("CreateContainerConfigError: env " + name + " names key " + key
                            + " of Secret " + secret + ", which the test did not create");
                }
                if (bytes != null) {
                    env.put(name, new String(bytes, StandardCharsets.UTF_8));
                }
            } else if (fields.get(at + ".valueFrom").isMissingNode()) {
                env.put(name, "");
            }
            // else a source this translation does not know (configMapKeyRef, resourceFieldRef): its
            // fields stay unread, and the run fails naming them
        }
        return env;
    }

    private static String field(String path, PodIdentity pod) {
        return switch (path) {
            case "metadata.name" -> pod.name();
            case "metadata.namespace" -> pod.namespace();
            case "metadata.uid" -> pod.uid();
            default -> {
                if (path.startsWith("metadata.labels['") && path.endsWith("']")) {
                    yield pod.labels()
                            .path(path.substring(17, path.length() - 2))
                            .asText("");
                }
                if (path.startsWith("metadata.annotations['") && path.endsWith("']")) {
                    yield pod.annotations()
                            .path(path.substring(22, path.length() - 2))
                            .asText("");
                }
                throw new IllegalStateException(
                        "fieldRef " + path + " has no value on one machine (no node, no pod IP)");
            }
        };
    }

    /** Kubernetes' {@code $(NAME)} expansion: defined names replaced, others kept as written, {@code $$} a {@code $}. */
    static String expand(String text, Map<String, String> env) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '$' || i + 1 >= text.length()) {
                out.append(c);
                continue;
            }
            char next = text.charAt(i + 1);
            if (next == '$') {
                out.append('$');
                i++;
            } else if (next == '(') {
                int end = text.indexOf(')', i + 2);
                if (end < 0) {
                    out.append(text, i, text.length());
                    break;
                }
                String name = text.substring(i + 2, end);
                out.append(env.containsKey(name) ? env.get(name) : text.substring(i, end + 1));
                i = end;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
