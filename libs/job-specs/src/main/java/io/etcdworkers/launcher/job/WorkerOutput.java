package io.etcdworkers.launcher.job;

import java.net.URI;
import java.util.Locale;

/**
 * How the worker reports besides its result: its log format and the Prometheus Pushgateway it
 * pushes its figures to (null = the worker's default). Passed as the workers' environment twins
 * ({@code ETCD_WORKER_LOG_FORMAT}, {@code ETCD_WORKER_METRICS_PUSHGATEWAY}).
 *
 * @param logFormat   {@code text} or {@code json}
 * @param pushgateway the gateway's URL
 */
public record WorkerOutput(String logFormat, String pushgateway) {
    public static final WorkerOutput DEFAULTS = new WorkerOutput(null, null);

    public WorkerOutput {
        logFormat = RequestChecks.blankToNull(logFormat);
        if (logFormat != null) {
            logFormat = logFormat.toLowerCase(Locale.ROOT);
            if (!logFormat.equals("text") && !logFormat.equals("json")) {
                throw new IllegalArgumentException("worker log format must be text or json: " + logFormat);
            }
        }
        pushgateway = RequestChecks.blankToNull(pushgateway);
        if (pushgateway != null) {
            URI uri = URI.create(pushgateway);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new IllegalArgumentException("metrics pushgateway must be an http(s) URL: " + pushgateway);
            }
        }
    }
}
