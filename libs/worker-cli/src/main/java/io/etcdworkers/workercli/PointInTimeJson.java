package io.etcdworkers.workercli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdworkers.format.Omission;
import io.etcdworkers.format.RestorePoint;
import io.etcdworkers.format.StopAt;
import io.etcdworkers.rebuild.engine.RebuildOutcome;
import io.etcdworkers.rebuild.sequence.PointReached;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The result's {@code pointInTime} object, written when a rebuild was asked for a revision, a
 * time or the last good state: what was asked, what was reached, how far the two are apart, and
 * what was left out.
 */
final class PointInTimeJson {
    private PointInTimeJson() {}

    static void write(ObjectNode result, RebuildOutcome o) {
        RestorePoint point = o.selection().point();
        if (!point.isPointInTime()) {
            return;
        }
        PointReached reached = o.stats().sequence().reached();
        ObjectNode json = result.putObject("pointInTime");
        ObjectNode requested = json.putObject("requested");
        if (point.stopAt() instanceof StopAt.AtRevision r) {
            requested.put("revision", r.revision());
        } else if (point.stopAt() instanceof StopAt.AtTime t) {
            requested.put("time", t.time().toString());
        } else {
            requested.put("latest", true);
        }
        requested.put("lastGood", point.lastGood());
        json.put("reachedRevision", o.finalRevision());
        // no revision after the base applied: the state is the full snapshot's, made when its name says
        OffsetDateTime reachedTime = reached.time()
                .orElse(OffsetDateTime.ofInstant(o.selection().base().name().createdAt(), ZoneOffset.UTC));
        json.put("reachedTime", reachedTime.toString());
        json.put("reachedTimeFrom", reached.time().isPresent() ? "the revision's events" : "the full snapshot's name");
        if (point.stopAt() instanceof StopAt.AtTime t) {
            json.put("secondsBeforeRequested", ResultJson.seconds(Duration.between(reachedTime.toInstant(), t.time())));
        }
        json.put("end", reached.end().name());
        reached.next().ifPresent(n -> json.put("nextRevision", n));
        reached.nextTime().ifPresent(t -> json.put("nextTime", t.toString()));
        json.put("complete", reached.omitted().isEmpty());
        ArrayNode left = json.putArray("leftOut");
        for (Omission omission : reached.omitted()) {
            ObjectNode entry = left.addObject();
            omission.object().ifPresent(k -> entry.put("object", k));
            entry.put("firstRevision", omission.firstRevision());
            entry.put("lastRevision", omission.lastRevision());
            omission.code().ifPresent(c -> entry.put("code", c.name()));
            entry.put("reason", omission.reason());
        }
    }
}
