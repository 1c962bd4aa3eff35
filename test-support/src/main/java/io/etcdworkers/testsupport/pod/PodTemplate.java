package io.etcdworkers.testsupport.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A pod template as rendered (a Job's {@code spec.template}, a CronJob's
 * {@code spec.jobTemplate.spec.template}), with the name and namespace of the Job that makes pods
 * of it: what {@link PodRun} runs.
 *
 * @param jobName   the Job's name (a CronJob's Job is named {@code <cronjob>-<minutes since the epoch>})
 * @param namespace the Job's namespace
 * @param template  the template: {@code metadata} and {@code spec}
 * @param job       the Job (for a CronJob: the Job it creates, its {@code jobTemplate} named), whose spec
 *                  its controller reads: {@code backoffLimit}, {@code podFailurePolicy}
 */
public record PodTemplate(String jobName, String namespace, JsonNode template, JsonNode job) {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** The scheduled time a CronJob's Job is named after here (2026-11-29T22:00:00Z, in minutes). */
    static final long SCHEDULED_MINUTES = 29_921_640L;

    public PodTemplate {
        Objects.requireNonNull(jobName, "jobName");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(template, "template");
    }

    /** Every object of a multi-document YAML (what {@code job-launcher ... --dry-run} prints). */
    public static List<JsonNode> parseYaml(String yaml) {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("not YAML: " + yaml, e);
        }
        return docs;
    }

    /** The pod template of a Job, or of the Job a CronJob creates. */
    public static PodTemplate of(JsonNode object) {
        String kind = object.path("kind").asText();
        String name = object.path("metadata").path("name").asText();
        String namespace = object.path("metadata").path("namespace").asText("default");
        return switch (kind) {
            case "Job" -> new PodTemplate(name, namespace, object.path("spec").path("template"), object);
            case "CronJob" -> {
                JsonNode jobTemplate = object.path("spec").path("jobTemplate");
                yield new PodTemplate(
                        name + "-" + SCHEDULED_MINUTES,
                        namespace,
                        jobTemplate.path("spec").path("template"),
                        jobTemplate);
            }
            default -> throw new IllegalArgumentException("not a Job or CronJob: " + kind + " " + name);
        };
    }

    /** The only Job or CronJob in a YAML; fails when there is not exactly one. */
    public static PodTemplate single(String yaml) {
        List<JsonNode> docs = parseYaml(yaml);
        if (docs.size() != 1) {
            throw new IllegalArgumentException("expected one object, got " + docs.size() + ":\n" + yaml);
        }
        return of(docs.get(0));
    }

    /** The container's memory limit as rendered ({@code 512Mi}), or null. */
    public String memoryLimit() {
        JsonNode limit = template.path("spec")
                .path("containers")
                .path(0)
                .path("resources")
                .path("limits")
                .path("memory");
        return limit.isMissingNode() ? null : limit.asText();
    }
}
