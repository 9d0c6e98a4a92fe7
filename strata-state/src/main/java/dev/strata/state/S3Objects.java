package dev.strata.state;

import java.util.List;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/** The few S3 calls the backend makes, with "no such object" as null rather than an exception. */
final class S3Objects {
    private S3Objects() {}

    /** An object's content and ETag. */
    record Read(byte[] bytes, String etag) {}

    static Read get(S3Client c, String bucket, String key) {
        try {
            ResponseBytes<GetObjectResponse> r =
                    c.getObjectAsBytes(g -> g.bucket(bucket).key(key));
            return new Read(r.asByteArray(), r.response().eTag());
        } catch (NoSuchKeyException e) {
            return null;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return null;
            }
            throw e;
        }
    }

    /** The ETag of an object, or null when it does not exist. */
    static String head(S3Client c, String bucket, String key) {
        try {
            HeadObjectResponse r = c.headObject(h -> h.bucket(bucket).key(key));
            return r.eTag();
        } catch (NoSuchKeyException e) {
            return null;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return null;
            }
            throw e;
        }
    }

    /** Every key under a prefix, sorted; the SDK's paginator follows the continuation tokens. */
    static List<String> list(S3Client c, String bucket, String prefix) {
        return c.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix)).contents().stream()
                .map(S3Object::key)
                .sorted()
                .toList();
    }
}
