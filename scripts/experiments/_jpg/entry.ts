export { JpegBandEncoder, encodeJpeg } from '../../../src/engines/jpeg-encoder';
export { packedPixels } from '../../../src/engines/image-recode';
