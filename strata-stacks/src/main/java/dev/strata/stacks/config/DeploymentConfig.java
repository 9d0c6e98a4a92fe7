package dev.strata.stacks.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A deployment configuration: everything the {@code .tfdeploy.hcl} and {@code .tfdeploy.json} files
 * of a stack directory declare. Maps are sorted by name.
 *
 * @param stores  by {@code TYPE.NAME}
 * @param hcpOnly blocks only HCP Terraform acts on ({@code identity_token}, {@code orchestrate}), by
 *                {@code TYPE.LABEL...}
 */
public record DeploymentConfig(
        Path dir,
        List<String> files,
        SortedMap<String, DeploymentBlock> deployments,
        SortedMap<String, DeploymentGroupBlock> deploymentGroups,
        SortedMap<String, AutoApproveRule> autoApproveRules,
        SortedMap<String, StackLocal> locals,
        SortedMap<String, StoreBlock> stores,
        SortedMap<String, PublishOutputBlock> publishOutputs,
        SortedMap<String, UpstreamInputBlock> upstreamInputs,
        SortedMap<String, HcpOnlyBlock> hcpOnly,
        Map<String, byte[]> sources) {
    public DeploymentConfig {
        files = List.copyOf(files);
        deployments = sorted(deployments);
        deploymentGroups = sorted(deploymentGroups);
        autoApproveRules = sorted(autoApproveRules);
        locals = sorted(locals);
        stores = sorted(stores);
        publishOutputs = sorted(publishOutputs);
        upstreamInputs = sorted(upstreamInputs);
        hcpOnly = sorted(hcpOnly);
        sources = Collections.unmodifiableMap(new TreeMap<>(sources));
    }

    private static <K, V> SortedMap<K, V> sorted(Map<K, V> m) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(m));
    }
}
