package dev.strata.tfplugin;

import dev.strata.lang.value.Value;
import java.util.List;
import java.util.Optional;

/** What the managed-resource calls return besides diagnostics. */
public final class ResourceResults {
    private ResourceResults() {}

    /** Why a provider postponed a change; Strata does not yet announce that it can handle deferrals. */
    public enum DeferralReason { UNKNOWN, RESOURCE_CONFIG_UNKNOWN, PROVIDER_CONFIG_UNKNOWN, ABSENT_PREREQ }

    /** @param newState null when the object no longer exists remotely */
    public record Read(Value newState, byte[] privateData, Optional<DeferralReason> deferred) {}

    /**
     * @param requiresReplace paths whose change forces the object to be replaced
     * @param legacyTypeSystem set by the legacy SDK, whose plans may deviate from the config in ways Terraform tolerates
     */
    public record Plan(Value plannedState, List<List<PluginDiagnostic.PathStep>> requiresReplace, byte[] plannedPrivate,
                       boolean legacyTypeSystem, Optional<DeferralReason> deferred) {
        public Plan {
            requiresReplace = List.copyOf(requiresReplace);
        }
    }

    public record Apply(Value newState, byte[] privateData, boolean legacyTypeSystem) {}

    public record Imported(String typeName, Value state, byte[] privateData) {}
}
