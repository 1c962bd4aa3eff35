package io.etcdworkers.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Random but reproducible backup histories on top of the fixture's base, for differential tests. */
public final class RandomHistory {
    private RandomHistory() {}

    /**
     * A few thousand revisions after the fixture's base: creates, updates of base and new keys,
     * deletes, re-creations, empty values, values over a page, multi-key transactions and keys
     * with leases the base does not have, cut into deltas of varying length.
     */
    public static GeneratedBucket write(Path root, long seed) {
        Random random = new Random(seed);
        GeneratedBucket bucket = GeneratedBucket.create(root, GeneratedBucket.Compression.GZIP, seed)
                .withSeedKeys();
        List<String> deleted = new ArrayList<>();
        int nextKey = 0;
        for (int delta = 0; delta < 8; delta++) {
            int revisions = 50 + random.nextInt(400);
            for (int r = 0; r < revisions; r++) {
                List<String> live = bucket.liveKeys();
                int op = random.nextInt(100);
                if (op < 30 || live.size() < 20) {
                    bucket.put("/registry/gen/k-" + (nextKey++), random.nextInt(100) < 3 ? 0 : random.nextInt(6000));
                } else if (op < 60) {
                    bucket.put(live.get(random.nextInt(live.size())), random.nextInt(3000));
                } else if (op < 72) {
                    String victim = live.get(random.nextInt(live.size()));
                    bucket.delete(victim);
                    deleted.add(victim);
                } else if (op < 80 && !deleted.isEmpty()) {
                    String again = deleted.remove(random.nextInt(deleted.size()));
                    if (!bucket.liveKeys().contains(again)) {
                        bucket.put(again, random.nextInt(500));
                    }
                } else if (op < 90) {
                    List<String> puts = new ArrayList<>();
                    List<String> deletes = new ArrayList<>();
                    for (int i = 0; i < 2 + random.nextInt(6); i++) {
                        String key = random.nextBoolean()
                                ? "/registry/gen/k-" + (nextKey++)
                                : live.get(random.nextInt(live.size()));
                        if (!puts.contains(key) && !deletes.contains(key)) {
                            if (random.nextInt(4) == 0 && live.contains(key)) {
                                deletes.add(key);
                            } else {
                                puts.add(key);
                            }
                        }
                    }
                    if (puts.isEmpty() && deletes.isEmpty()) {
                        puts.add("/registry/gen/k-" + (nextKey++));
                    }
                    bucket.transaction(puts, deletes, 2000);
                } else {
                    long lease = 0x7000 + random.nextInt(4);
                    bucket.putWithLease("/registry/leases/gen-" + random.nextInt(30), 100, lease);
                }
            }
            bucket.cutDelta();
        }
        return bucket;
    }
}
