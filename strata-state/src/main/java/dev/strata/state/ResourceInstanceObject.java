package dev.strata.state;

import dev.strata.addr.AttributePath;
import dev.strata.addr.ConfigResource;
import dev.strata.addr.InstanceKey;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One object of a resource instance: the current object, or a deposed one (an old object kept during a
 * {@code create_before_destroy} replacement until it is destroyed). One element of a resource's
 * {@code instances[]} in the state file.
 *
 * @param key                   the instance key
 * @param status                ready or tainted
 * @param deposed               the 8-character deposed key, or null for the current object
 * @param schemaVersion         the provider's resource schema version the attributes were written with
 * @param attributes            the attributes as raw JSON (decoded later with the provider schema); null
 *                              only for legacy states that carry {@code attributes_flat} instead
 * @param attributesFlat        legacy flatmap attributes, or null
 * @param sensitiveAttributes   paths of sensitive attributes; null when the field is absent
 * @param identitySchemaVersion version of the identity schema (Terraform 1.12+), 0 when absent
 * @param identity              the resource identity (Terraform 1.12+), or null
 * @param privateData           provider-private data, base64 as in the file, or null
 * @param dependencies          the resources this object depended on when it was applied, in the file's order
 * @param createBeforeDestroy   whether the object was created with create_before_destroy
 * @param extra                 members this version does not know, written back unchanged
 */
public record ResourceInstanceObject(
        InstanceKey key,
        ObjectStatus status,
        String deposed,
        long schemaVersion,
        JsonValue attributes,
        Map<String, String> attributesFlat,
        List<AttributePath> sensitiveAttributes,
        long identitySchemaVersion,
        JsonValue identity,
        String privateData,
        List<ConfigResource> dependencies,
        boolean createBeforeDestroy,
        JsonValue.ObjectValue extra) {

    public ResourceInstanceObject {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(status, "status");
        if (deposed != null && deposed.isEmpty()) {
            deposed = null;
        }
        attributesFlat = attributesFlat == null ? null : Collections.unmodifiableMap(new TreeMap<>(attributesFlat));
        sensitiveAttributes = sensitiveAttributes == null ? null : List.copyOf(sensitiveAttributes);
        dependencies = dependencies == null ? List.of() : List.copyOf(dependencies);
        extra = extra == null ? JsonValue.EMPTY_OBJECT : extra;
    }

    /** A ready, current object with the given attributes, as an apply produces it. */
    public static ResourceInstanceObject current(
            InstanceKey key,
            long schemaVersion,
            JsonValue attributes,
            List<AttributePath> sensitiveAttributes,
            List<ConfigResource> dependencies) {
        return new ResourceInstanceObject(
                key,
                ObjectStatus.READY,
                null,
                schemaVersion,
                attributes,
                null,
                sensitiveAttributes == null ? List.of() : sensitiveAttributes,
                0,
                null,
                null,
                dependencies,
                false,
                null);
    }

    public boolean isDeposed() {
        return deposed != null;
    }

    public ResourceInstanceObject withKey(InstanceKey newKey) {
        return new ResourceInstanceObject(
                newKey,
                status,
                deposed,
                schemaVersion,
                attributes,
                attributesFlat,
                sensitiveAttributes,
                identitySchemaVersion,
                identity,
                privateData,
                dependencies,
                createBeforeDestroy,
                extra);
    }

    public ResourceInstanceObject withStatus(ObjectStatus newStatus) {
        return new ResourceInstanceObject(
                key,
                newStatus,
                deposed,
                schemaVersion,
                attributes,
                attributesFlat,
                sensitiveAttributes,
                identitySchemaVersion,
                identity,
                privateData,
                dependencies,
                createBeforeDestroy,
                extra);
    }
}
