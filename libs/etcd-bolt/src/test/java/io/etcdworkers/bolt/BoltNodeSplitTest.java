package io.etcdworkers.bolt;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.seeded.SeededCase;
import io.etcdworkers.testsupport.seeded.SeededTest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The streaming NodeBuilder cuts pages exactly where bbolt's split (node.go: split, splitTwo,
 * splitIndex) cuts one node holding all the elements, restated here literally.
 */
@Timeout(60)
class BoltNodeSplitTest {

    @SeededTest(tries = 400)
    void streamingCutsEqualBboltsSplitOfTheWholeNode(SeededCase c) throws IOException {
        assertCutsEqualBbolts(c.random(), c.intBetween(0, 400), c.anyBoolean());
    }

    /** No element, one, the four bbolt never splits, the fifth, and the most the random cases hold. */
    @ParameterizedTest(name = "{0} elements, branch {1}")
    @CsvSource({
        "0, false",
        "0, true",
        "1, false",
        "1, true",
        "2, false",
        "4, false",
        "4, true",
        "5, false",
        "5, true",
        "399, false",
        "400, false",
        "400, true"
    })
    void streamingCutsEqualBboltsAtTheEdges(int count, boolean branch) throws IOException {
        for (long seed = 0; seed < 12; seed++) {
            assertCutsEqualBbolts(new Random(seed), count, branch);
        }
    }

    private static void assertCutsEqualBbolts(Random random, int count, boolean branch) throws IOException {
        int pageSize = 4096;
        List<NodeBuilder.Element> elements = new ArrayList<>();
        int mode = random.nextInt(3);
        for (int i = 0; i < count; i++) {
            int key = 1 + random.nextInt(mode == 0 ? 40 : 300);
            int value = branch
                    ? 0
                    : switch (mode) {
                        case 0 -> random.nextInt(100);
                        case 1 -> random.nextInt(10) == 0 ? random.nextInt(3 * pageSize) : random.nextInt(400);
                        default -> random.nextInt(2 * pageSize);
                    };
            elements.add(
                    branch
                            ? NodeBuilder.Element.branch(new byte[key], 7)
                            : NodeBuilder.Element.leaf(new byte[key], new byte[value], 0));
        }
        assertThat(streamed(elements, pageSize))
                .as("%d elements, mode %d", count, mode)
                .isEqualTo(bboltSplit(elements, pageSize, 0.9));
    }

    @SeededTest(tries = 200)
    void heldElementsStayWithinAFewPagesWhateverTheCount(SeededCase c) throws IOException {
        boolean large = c.anyBoolean();
        Random random = c.random();
        int pageSize = 4096;
        int maxElement = 16 + 300 + (large ? 3 * pageSize : 200);
        NodeBuilder node = new NodeBuilder(pageSize, 0.9, p -> {});
        for (int i = 0; i < 20_000; i++) {
            int value = random.nextInt(maxElement - 16 - 300 + 1);
            node.add(NodeBuilder.Element.leaf(new byte[1 + random.nextInt(300)], new byte[value], 0));
        }
        // a page's worth before the cut, at most two large first elements, and what confirms the cut
        assertThat(node.maxHeldSize()).isLessThanOrEqualTo(2L * pageSize + 5L * maxElement);
    }

    @Test
    void emptyLevelIsOneEmptyPageOnlyWhenAsked() throws IOException {
        List<Integer> pages = new ArrayList<>();
        new NodeBuilder(4096, 0.9, p -> pages.add(p.size())).finish(true);
        assertThat(pages).containsExactly(0);
        pages.clear();
        new NodeBuilder(4096, 0.9, p -> pages.add(p.size())).finish(false);
        assertThat(pages).isEmpty();
    }

    @Test
    void smallEntriesFillPagesToNinetyPercent() throws IOException {
        // 16 header + n * (16 + 8 + 100): cut before exceeding 3686 bytes -> 29 elements per page
        List<NodeBuilder.Element> elements = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            elements.add(NodeBuilder.Element.leaf(new byte[8], new byte[100], 0));
        }
        assertThat(streamed(elements, 4096)).containsExactly(29, 29, 29, 13);
    }

    private static List<Integer> streamed(List<NodeBuilder.Element> elements, int pageSize) throws IOException {
        List<Integer> pages = new ArrayList<>();
        NodeBuilder node = new NodeBuilder(pageSize, 0.9, p -> pages.add(p.size()));
        for (NodeBuilder.Element e : elements) {
            node.add(e);
        }
        node.finish(true);
        return pages;
    }

    /** bbolt's node.split as written in node.go, on the complete element list. */
    static List<Integer> bboltSplit(List<NodeBuilder.Element> all, int pageSize, double fillPercent) {
        List<Integer> pages = new ArrayList<>();
        List<NodeBuilder.Element> node = all;
        while (true) {
            if (node.size() <= 4 || sizeLessThan(node, pageSize)) {
                pages.add(node.size());
                return pages;
            }
            int threshold = (int) (pageSize * fillPercent);
            int index = 0;
            long sz = 16;
            for (int i = 0; i < node.size() - 2; i++) {
                index = i;
                long elsize = node.get(i).size();
                if (index >= 2 && sz + elsize > threshold) {
                    break;
                }
                sz += elsize;
            }
            pages.add(index);
            node = node.subList(index, node.size());
        }
    }

    private static boolean sizeLessThan(List<NodeBuilder.Element> node, int v) {
        long sz = 16;
        for (NodeBuilder.Element e : node) {
            sz += e.size();
            if (sz >= v) {
                return false;
            }
        }
        return true;
    }
}
