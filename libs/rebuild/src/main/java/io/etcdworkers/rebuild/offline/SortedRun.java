package io.etcdworkers.rebuild.offline;

import io.etcdworkers.etcd.schema.Revision;
import io.etcdworkers.files.OwnerOnly;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A file of folded keys in one order, and the merge of several such files into that order:
 * how a fold too large for the heap still hands the database writer one key after the other.
 */
final class SortedRun {
    private static final int BUFFER = 64 * 1024;

    private SortedRun() {}

    /** Writes {@code keys}, already in order, to {@code file}. */
    static final class Writer implements AutoCloseable {
        private final DataOutputStream out;

        Writer(Path file) throws IOException {
            this.out = new DataOutputStream(new BufferedOutputStream(OwnerOnly.newOutputStream(file), BUFFER));
        }

        void add(FoldedKey k) throws IOException {
            KeyRecord.write(out, k.key(), k.value(), k.create(), k.mod(), k.sub(), k.version(), k.lease());
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /** One run read in order, its head key at hand. */
    private static final class Cursor implements AutoCloseable {
        private final Path file;
        private final DataInputStream in;
        private FoldedKey head;

        Cursor(Path file) throws IOException {
            this.file = file;
            this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), BUFFER));
            advance();
        }

        void advance() throws IOException {
            head = KeyRecord.read(in, file);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Visits the keys of all {@code runs}, each sorted by {@code order}, merged into that order. */
    static void merge(List<Path> runs, Comparator<FoldedKey> order, FoldedKeys.Visitor visitor) throws IOException {
        List<Cursor> open = new ArrayList<>();
        try {
            PriorityQueue<Cursor> heads =
                    new PriorityQueue<>(Math.max(1, runs.size()), (a, b) -> order.compare(a.head, b.head));
            for (Path run : runs) {
                Cursor c = new Cursor(run);
                open.add(c);
                if (c.head != null) {
                    heads.add(c);
                }
            }
            FoldedKey last = null;
            while (!heads.isEmpty()) {
                Cursor c = heads.poll();
                if (last != null && order.compare(last, c.head) >= 0) {
                    // two runs hold the same key or revision, or one is out of order: never write that
                    throw new IllegalStateException(
                            "sorted runs out of order at key " + KeyRules.printable(c.head.key()) + " revision "
                                    + new Revision(c.head.mod(), c.head.sub()));
                }
                last = c.head;
                visitor.visit(c.head);
                c.advance();
                if (c.head != null) {
                    heads.add(c);
                }
            }
        } finally {
            for (Cursor c : open) {
                c.close();
            }
        }
    }
}
