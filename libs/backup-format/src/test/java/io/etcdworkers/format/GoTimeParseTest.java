package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link GoTimeFormat#parse} must answer exactly as {@link OffsetDateTime#parse(CharSequence)}
 * does, for Go's form and for everything else: the same time and offset, or the same refusal.
 */
class GoTimeParseTest {

    @Test
    void randomTimesInGosFormAndVariantsParseAsTheJdkParsesThem() {
        Random random = new Random(20261202);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(
                    "%04d-%02d-%02dT%02d:%02d:%02d",
                    random.nextInt(10_000),
                    1 + random.nextInt(12),
                    1 + random.nextInt(31),
                    random.nextInt(24),
                    random.nextInt(60),
                    random.nextInt(60)));
            int fraction = random.nextInt(11); // 0: none; 10: one digit too many
            if (fraction > 0) {
                sb.append('.');
                for (int d = 0; d < fraction; d++) {
                    sb.append((char) ('0' + random.nextInt(10)));
                }
            }
            switch (random.nextInt(4)) {
                case 0 -> sb.append('Z');
                case 1 ->
                    sb.append(String.format(
                            "%c%02d:%02d", random.nextBoolean() ? '+' : '-', random.nextInt(19), random.nextInt(60)));
                case 2 -> sb.append(String.format("+%02d:%02d", random.nextInt(15), 15 * random.nextInt(4)));
                default -> sb.append("-00:00");
            }
            texts.add(sb.toString());
        }
        int fast = 0;
        for (String text : texts) {
            fast += assertSameAsJdk(text) ? 1 : 0;
        }
        // the fast path, not only the fallback, answered: every text with at most 9 fraction
        // digits and valid fields is Go's form (about half: invalid days, offsets past 18 h)
        assertThat(fast).isGreaterThan(texts.size() / 3);
    }

    @Test
    void edgesAndMalformedTextsGetTheJdksAnswer() {
        List<String> texts = List.of(
                "2024-01-01T00:00:01.26Z",
                "2024-01-01T00:00:01Z",
                "2024-02-29T23:59:59.999999999+14:00",
                "2023-02-29T00:00:00Z",
                "2024-04-31T00:00:00Z",
                "2024-13-01T00:00:00Z",
                "2024-00-10T00:00:00Z",
                "2024-01-01T24:00:00Z",
                "2024-01-01T23:60:00Z",
                "2024-01-01T23:59:60Z",
                "0000-01-01T00:00:00Z",
                "9999-12-31T23:59:59.999999999-18:00",
                "2024-01-01T00:00:00+18:00",
                "2024-01-01T00:00:00+18:01",
                "2024-01-01T00:00:00+19:00",
                "2024-01-01T00:00:00+05",
                "2024-01-01T00:00:00+0530",
                "2024-01-01T00:00:00+05:30:15",
                "2024-01-01T00:00:00.Z",
                "2024-01-01T00:00:00.1234567891Z",
                "2024-01-01T00:00Z",
                "2024-01-01t00:00:00z",
                "2024-01-01 00:00:00Z",
                "2024-01-01T00:00:00",
                "+12024-01-01T00:00:00Z",
                "2024-1-01T00:00:00Z",
                "2024-01-01T00:00:00ZZ",
                "2024-01-01T00:00:00Z ",
                " 2024-01-01T00:00:00Z",
                "２０２４-01-01T00:00:00Z",
                "2024-01-01T00:00:00.١Z",
                "",
                "Z",
                "2024-01-01T00:00:00-00:00",
                "2024-01-01T00:00:00+00:60",
                "2024-01-01T00:00:00.000000000Z");
        for (String text : texts) {
            assertSameAsJdk(text);
        }
    }

    @Test
    void whatTheFormatterWritesTheFastPathParsesBackToTheSameTime() {
        OffsetDateTime time = OffsetDateTime.parse("2024-03-05T06:07:08.120000000+05:30");

        assertThat(GoTimeFormat.parseGoForm(GoTimeFormat.format(time))).isEqualTo(time);
        assertThat(GoTimeFormat.parseGoForm("2024-01-01T00:00:01.26Z"))
                .isEqualTo(OffsetDateTime.parse("2024-01-01T00:00:01.260Z"));
        assertThat(GoTimeFormat.parseGoForm("2024-01-01T00:00:00+05:30:15"))
                .as("not Go's form")
                .isNull();
    }

    /** @return whether the fast path answered (the JDK's parser otherwise) */
    private static boolean assertSameAsJdk(String text) {
        OffsetDateTime expected;
        try {
            expected = OffsetDateTime.parse(text);
        } catch (DateTimeParseException refused) {
            assertThat(GoTimeFormat.parseGoForm(text)).as(text).isNull();
            assertThatThrownBy(() -> GoTimeFormat.parse(text)).as(text).isInstanceOf(DateTimeParseException.class);
            return false;
        }
        OffsetDateTime fast = GoTimeFormat.parseGoForm(text);
        if (fast != null) {
            assertThat(fast).as(text).isEqualTo(expected);
        }
        assertThat(GoTimeFormat.parse(text)).as(text).isEqualTo(expected);
        return fast != null;
    }
}
