package io.etcdworkers.restore.bolt;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds one bucket's B+tree bottom-up from leaf elements in key order. Each completed page
 * adds (its first key, its pgid) to the level above; a level gets its parent only when it
 * completes a second page, so the level that ends with a single page holds the root. Pages are
 * written in the order they complete; memory is a few pages per level.
 */
final class TreeBuilder {
    /** etcd's defragmentation copies buckets with FillPercent 0.9. */
    static final double FILL_PERCENT = 0.9;

    private final PageSink sink;
    private final int pageSize;
    private final List<Level> levels = new ArrayList<>();

    TreeBuilder(PageSink sink, int pageSize) {
        this.sink = sink;
        this.pageSize = pageSize;
        levels.add(new Level(0));
    }

    void add(NodeBuilder.Element leafElement) throws IOException {
        levels.get(0).node.add(leafElement);
    }

    /** Closes every level up to a single root page; returns the root's pgid. */
    long finish() throws IOException {
        for (int i = 0; ; i++) {
            Level level = levels.get(i);
            level.node.finish(i == 0);
            if (level.node.pages() == 1) {
                return level.firstPgid;
            }
        }
    }

    private final class Level {
        final int depth;
        final NodeBuilder node;
        byte[] firstKey;
        long firstPgid;

        Level(int depth) {
            this.depth = depth;
            this.node = new NodeBuilder(pageSize, FILL_PERCENT, this::write);
        }

        private void write(List<NodeBuilder.Element> elements) throws IOException {
            long pgid = sink.append(PageEncoder.encode(elements, depth == 0, pageSize));
            byte[] key = elements.isEmpty() ? null : elements.get(0).key();
            long pages = node.pages();
            if (pages == 1) {
                firstKey = key;
                firstPgid = pgid;
                return;
            }
            if (pages == 2) {
                levels.add(new Level(depth + 1));
                parent().node.add(NodeBuilder.Element.branch(firstKey, firstPgid));
            }
            parent().node.add(NodeBuilder.Element.branch(key, pgid));
        }

        private Level parent() {
            return levels.get(depth + 1);
        }
    }
}
