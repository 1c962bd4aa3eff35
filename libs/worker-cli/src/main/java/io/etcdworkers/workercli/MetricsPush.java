package io.etcdworkers.workercli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.contract.BuildVersion;
import io.etcdworkers.contract.ResultFields;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes a run's final figures to a Prometheus Pushgateway ({@code --metrics-pushgateway}): a
 * worker is a Job that ends, so nothing could scrape it; the gateway keeps the last run's figures
 * per {@code job="etcd-workers"}, {@code kind} and {@code instance} (the pod's name) for Prometheus
 * to scrape. The figures are the result JSON's (the result stays the authority): whether the run
 * succeeded, its exit code, how long it took and what it reached. A gateway that cannot be reached
 * is logged and changes nothing else: the run's outcome is its exit code and result.
 */
final class MetricsPush {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsPush.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Result fields pushed as gauges, by metric name. */
    private static final Map<String, String> FIGURES = new LinkedHashMap<>();

    static {
        FIGURES.put("etcdworkers_run_exit_code", ResultFields.EXIT_CODE);
        FIGURES.put("etcdworkers_run_duration_seconds", "durationSeconds");
        FIGURES.put("etcdworkers_run_final_revision", "finalRevision");
        FIGURES.put("etcdworkers_run_keys", "keys");
        FIGURES.put("etcdworkers_run_events", "events");
        FIGURES.put("etcdworkers_run_deltas", "deltas");
        FIGURES.put("etcdworkers_run_delta_bytes", "deltaBytes");
        FIGURES.put("etcdworkers_run_bad_objects", "badObjects");
        FIGURES.put("etcdworkers_run_extracted_keys", "extractedKeys");
    }

    private MetricsPush() {}

    static void push(URI gateway, ObjectNode result, Map<String, String> env) {
        String kind = result.path(ResultFields.KIND).asText("unknown");
        String instance = env.getOrDefault("POD_NAME", env.getOrDefault("HOSTNAME", "local"));
        URI target = URI.create(gateway.toString().replaceAll("/+$", "") + "/metrics/job/etcd-workers/kind/"
                + segment(kind) + "/instance/" + segment(instance));
        String body = exposition(result);
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(target)
                            .timeout(TIMEOUT)
                            .header("Content-Type", "text/plain; version=0.0.4")
                            .PUT(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                LOG.warn("metrics push to {} answered {}: {}", target, response.statusCode(), response.body());
            } else {
                LOG.info("metrics pushed to {}", target);
            }
        } catch (IOException e) {
            LOG.warn("could not push the metrics to {}: {}", target, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("metrics push to {} interrupted", target);
        }
    }

    /** The result's figures in Prometheus' text format, each labelled with the outcome and error code. */
    static String exposition(ObjectNode result) {
        String labels = "{outcome=\"" + escape(result.path(ResultFields.OUTCOME).asText("unknown")) + "\",error_code=\""
                + escape(result.path(ResultFields.ERROR_CODE).asText("none")) + "\"}";
        StringBuilder out = new StringBuilder();
        gauge(
                out,
                "etcdworkers_run_succeeded",
                labels,
                ResultFields.SUCCEEDED.equals(result.path(ResultFields.OUTCOME).asText()) ? 1 : 0);
        for (Map.Entry<String, String> f : FIGURES.entrySet()) {
            JsonNode v = result.get(f.getValue());
            if (v != null && v.isNumber()) {
                gauge(out, f.getKey(), labels, v.asDouble());
            }
        }
        JsonNode restorable = result.get("restorable");
        if (restorable != null && restorable.has("toRevision")) {
            gauge(
                    out,
                    "etcdworkers_run_restorable_revision",
                    labels,
                    restorable.get("toRevision").asDouble());
        }
        JsonNode point = result.get("pointInTime");
        if (point != null && point.has("reachedRevision")) {
            gauge(
                    out,
                    "etcdworkers_run_reached_revision",
                    labels,
                    point.get("reachedRevision").asDouble());
        }
        gauge(out, "etcdworkers_run_last_end_timestamp_seconds", labels, System.currentTimeMillis() / 1000.0);
        // the version as an info metric, so the figures' series stay the same across upgrades
        gauge(
                out,
                "etcdworkers_build_info",
                "{version=\"" + escape(result.path(ResultFields.VERSION).asText(BuildVersion.current())) + "\"}",
                1);
        return out.toString();
    }

    private static void gauge(StringBuilder out, String name, String labels, double value) {
        out.append("# TYPE ")
                .append(name)
                .append(" gauge\n")
                .append(name)
                .append(labels)
                .append(' ')
                .append(
                        value == Math.rint(value) && Math.abs(value) < 1e15
                                ? Long.toString((long) value)
                                : Double.toString(value))
                .append('\n');
    }

    private static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String segment(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
