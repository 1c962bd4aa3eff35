package io.etcdworkers.etcd;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * etcd's {@code Lease/LeaseLeases} call (etcd 3.3+), which jetcd's generated stubs lack: the
 * request is empty and the response is {@code {header = 1; repeated LeaseStatus leases = 2}}
 * with {@code LeaseStatus {int64 ID = 1}}, so a few lines of wire-format reading do.
 */
final class LeaseList {
    private static final MethodDescriptor<byte[], byte[]> METHOD = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName("etcdserverpb.Lease/LeaseLeases")
            .setRequestMarshaller(new RawMarshaller())
            .setResponseMarshaller(new RawMarshaller())
            .build();

    private LeaseList() {}

    static long[] ids(Channel channel, Duration timeout) {
        byte[] response = ClientCalls.blockingUnaryCall(
                channel,
                METHOD,
                CallOptions.DEFAULT.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS),
                new byte[0]);
        try {
            return parse(response);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable LeaseLeases response", e);
        }
    }

    static long[] parse(byte[] response) throws IOException {
        long[] ids = new long[8];
        int count = 0;
        CodedInputStream in = CodedInputStream.newInstance(response);
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (WireFormat.getTagFieldNumber(tag) == 2
                    && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                int limit = in.pushLimit(in.readRawVarint32());
                int inner;
                while ((inner = in.readTag()) != 0) {
                    if (WireFormat.getTagFieldNumber(inner) == 1
                            && WireFormat.getTagWireType(inner) == WireFormat.WIRETYPE_VARINT) {
                        if (count == ids.length) {
                            ids = Arrays.copyOf(ids, count * 2);
                        }
                        ids[count++] = in.readInt64();
                    } else {
                        in.skipField(inner);
                    }
                }
                in.popLimit(limit);
            } else {
                in.skipField(tag);
            }
        }
        return Arrays.copyOf(ids, count);
    }

    private static final class RawMarshaller implements MethodDescriptor.Marshaller<byte[]> {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
