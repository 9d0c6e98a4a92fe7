/**
 * Values and types as they cross the plugin wire: cty's JSON type encoding ({@link TypeJson}),
 * msgpack values ({@link MsgpackValues}; the JSON fallback is {@link dev.strata.provider.ValueJson#decodeExact}). Entry point for
 * a DynamicValue: {@link MsgpackValues#decode(byte[], dev.strata.lang.types.Type)}.
 */
package dev.strata.tfplugin.wire;
