package io.etcdworkers.store.swift;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Picks the Swift account URL from a Keystone v3 token's service catalog as gophercloud's
 * {@code V3EndpointURL} does for etcdbrctl: the entries of type {@code object-store}, their
 * endpoints with interface {@code public} and, when a region is asked for, whose {@code region}
 * or {@code region_id} is that region; the first such endpoint wins.
 */
final class KeystoneCatalog {
    static final String TYPE = "object-store";
    static final String INTERFACE = "public";

    /** One catalog endpoint. */
    record Endpoint(String url, String region) {}

    private KeystoneCatalog() {}

    /**
     * @param token the {@code token} object of Keystone's answer
     * @throws WorkerException {@link ErrorCode#USAGE} when no endpoint fits (the message lists what the catalog has)
     */
    static Endpoint objectStore(JsonNode token, Optional<String> region, String keystone) {
        List<String> seen = new ArrayList<>();
        JsonNode catalog = token == null ? null : token.get("catalog");
        if (catalog != null && catalog.isArray()) {
            for (JsonNode entry : catalog) {
                if (!TYPE.equals(entry.path("type").asText())) {
                    continue;
                }
                for (JsonNode endpoint : entry.path("endpoints")) {
                    String iface = endpoint.path("interface").asText();
                    String name = endpoint.path("region").asText();
                    String id = endpoint.path("region_id").asText();
                    seen.add(iface + " in " + (name.isEmpty() ? id.isEmpty() ? "no region" : id : name));
                    if (INTERFACE.equals(iface)
                            && (region.isEmpty()
                                    || region.get().equals(name)
                                    || region.get().equals(id))) {
                        return new Endpoint(
                                checkUrl(endpoint.path("url").asText(), keystone), name.isEmpty() ? id : name);
                    }
                }
            }
        }
        String wanted = INTERFACE + " " + TYPE + " endpoint"
                + region.map(r -> " in region " + r).orElse("");
        throw new WorkerException(
                ErrorCode.USAGE,
                "the token from " + keystone + " has no " + wanted + " in its "
                        + "catalog ("
                        + (seen.isEmpty()
                                ? "it lists no " + TYPE + " service"
                                : TYPE + " endpoints: " + String.join(", ", seen))
                        + "); set OS_REGION_NAME to one of its regions, or give the "
                        + "account URL as --store-endpoint-override");
    }

    private static String checkUrl(String url, String keystone) {
        try {
            URI uri = new URI(url);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new URISyntaxException(url, "no scheme or host");
            }
            return url;
        } catch (URISyntaxException e) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "the object-store endpoint in the catalog of " + keystone + " is not a URL: " + url,
                    e);
        }
    }
}
