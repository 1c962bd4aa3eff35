package io.etcdworkers.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.cloud.LengthCheckedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link LengthCheckedInputStream}: the length check behind every S3 read. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class S3BodyLengthTest {

    @Test
    void aBodyOfTheExpectedLengthReadsNormally() throws IOException {
        try (InputStream in = new LengthCheckedInputStream(new ByteArrayInputStream(new byte[10]), 10, "obj")) {
            assertThat(in.readAllBytes()).hasSize(10);
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void aBodyThatEndsEarlyIsTruncatedEvenWithoutATransportError() {
        InputStream in = new LengthCheckedInputStream(new ByteArrayInputStream(new byte[7]), 10, "store: \"obj\"");

        assertThatThrownBy(in::readAllBytes).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT);
            assertThat(e.getMessage()).isEqualTo("store: \"obj\": the body ended after 7 of 10 bytes");
        });
    }

    @Test
    void singleByteReadsAreCountedToo() throws IOException {
        try (InputStream in = new LengthCheckedInputStream(new ByteArrayInputStream(new byte[2]), 3, "obj")) {
            assertThat(in.read()).isZero();
            assertThat(in.read()).isZero();
            assertThatThrownBy(in::read)
                    .isInstanceOfSatisfying(
                            WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT));
        }
    }

    @Test
    void aBodyLongerThanAnnouncedIsRejected() {
        InputStream in = new LengthCheckedInputStream(new ByteArrayInputStream(new byte[12]), 10, "obj");

        assertThatThrownBy(in::readAllBytes)
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE));
    }

    @Test
    void aTransportErrorIsTruncationWithItsCause() {
        IOException reset = new IOException("Connection reset");
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw reset;
            }
        };
        InputStream in = new LengthCheckedInputStream(failing, 10, "obj");

        assertThatThrownBy(() -> in.read(new byte[4])).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.TRUNCATED_OBJECT);
            assertThat(e.getCause()).isSameAs(reset);
        });
    }
}
