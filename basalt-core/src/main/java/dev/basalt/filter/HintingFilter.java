package dev.basalt.filter;

/**
 * Marks filters that may answer {@link Filter.ReturnCode#SEEK_NEXT_USING_HINT}. A {@link
 * FilterList} of MUST_PASS_ALL does not drop a row by its key while such a member still accepts it,
 * so that the member gets to give its seek hint instead of the scan stepping row by row (HBase 2.6,
 * HBASE-28622). Members that reject a row key must then reject its cells too, which every filter of
 * this package does.
 */
public interface HintingFilter {}
