export { nowSeconds } from "../shared/time";
